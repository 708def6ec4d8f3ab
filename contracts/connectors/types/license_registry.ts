// license_registry: a driver licence data verification service (token, then the licence checked),
// primary with a secondary for failover, optionally value-free and over mutual TLS.
import { Type } from '@sinclair/typebox';
import { CERT_FILE_NAME, defineConnector, opt, str, strict, uri } from '../connector.ts';

export const license_registry = defineConnector({
  type: 'license_registry',
  kinds: ['dl_verify'],
  config: Type.Object(
    {
      primaryAuthUrl: opt(uri('token endpoint of the primary registry')),
      primaryDLDVUrl: opt(uri('licence data verification endpoint of the primary registry')),
      secondaryAuthUrl: opt(uri('token endpoint of the secondary registry (failover)')),
      secondaryDLDVUrl: opt(uri('verification endpoint of the secondary registry (failover)')),
      valueFreeDldvPrimaryUrl: opt(uri('value-free (match/no-match only) variant, primary')),
      valueFreeDldvSecondaryUrl: opt(uri('value-free variant, secondary')),
      certPath: opt(
        Type.String({
          pattern: CERT_FILE_NAME,
          description:
            "file name of a PKCS#12 client certificate for mutual TLS in the worker's CONNECTOR_CERT_DIR/<communityId>/, placed there by the operator (a plain name: no path, no leading dot)",
        }),
      ),
      passphrase: opt(str('passphrase of the client certificate')),
      messageOriginatorId: opt(str()),
      messageDestinationId: opt(str()),
    },
    strict,
  ),
  secrets: ['passphrase'],
  addresses: [
    'primaryAuthUrl',
    'primaryDLDVUrl',
    'secondaryAuthUrl',
    'secondaryDLDVUrl',
    'valueFreeDldvPrimaryUrl',
    'valueFreeDldvSecondaryUrl',
  ],
  deployment: { compute: 'io', clientCertificates: true },
});
