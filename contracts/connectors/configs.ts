// The `config` of a verifier per connector type (spec 2.3), and which members are secrets (sealed
// at rest) and which are addresses. Unknown members are refused so a typo does not pass silently.
import { Type, type TObject, type TSchema } from '@sinclair/typebox';
import type { ConnectorType } from './types.ts';
import { CHANNEL_RESPONSE_FIELDS, ChannelConfiguration, TokenFlow } from './scanChannel.ts';

const str = (description?: string) => Type.String(description ? { description } : {});
const opt = <S extends TSchema>(schema: S) => Type.Optional(schema);
const uri = (description: string) => Type.String({ format: 'uri', description });
const strict = { additionalProperties: false } as const;

/** A plain file name: no separator, no leading dot (so neither `.` nor `..`), nothing absolute. */
export const CERT_FILE_NAME = '^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$';

const Calibration = Type.Union([
  Type.Literal('SOFT'),
  Type.Literal('REGULAR'),
  Type.Literal('HARDENED'),
]);

/** One schema per connector type; the spec's provider-name parts (<scan>, <cloud>) are written
 *  as `scan` and `aws` where a member name needs one. */
export const CONFIG_BY_CONNECTOR: Record<ConnectorType, TObject> = {
  basic_ocr: Type.Object(
    {},
    { ...strict, description: 'works offline in the worker; no settings' },
  ),
  license_registry: Type.Object(
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
  identity_data: Type.Object({ apiKey: opt(str()), url: opt(uri('provider endpoint')) }, strict),
  liveness: Type.Object(
    {
      apiKey: opt(str()),
      url: opt(uri('face liveness endpoint')),
      documentLivenessCheckAPI: opt(uri('document liveness endpoint')),
      documentApiKey: opt(str()),
      calibration: opt(Calibration),
    },
    strict,
  ),
  face_compare_a: Type.Object(
    {
      accounts: opt(
        Type.Array(
          Type.Object(
            { apiKey: str(), url: uri('detect endpoint base'), urlVerify: uri('verify endpoint') },
            strict,
          ),
          {
            description: 'tried in order: the next account is used when one fails',
          },
        ),
      ),
      retryCount: opt(Type.Number({ minimum: 0, maximum: 10 })),
      returnFaceId: opt(Type.Boolean()),
      returnFaceLandmarks: opt(Type.Boolean()),
      detectionModel: opt(str()),
      recognitionModel: opt(str()),
      returnFaceAttributes: opt(str()),
      faceIdTimeToLive: opt(Type.Number({ minimum: 60, maximum: 86400 })),
    },
    strict,
  ),
  face_compare_b: Type.Object({ apiKey: opt(str()), url: opt(uri('compare endpoint')) }, strict),
  agent_review: Type.Object({ apiKey: opt(str()), url: opt(uri('review queue endpoint')) }, strict),
  auto_review: Type.Object({ apiKey: opt(str()), url: opt(uri('review endpoint')) }, strict),
  people_search: Type.Object(
    {
      apName: opt(str()),
      apPassword: opt(str()),
      searchType: opt(str()),
      url: opt(uri('search endpoint')),
      verifyType: opt(str()),
      verifyUrl: opt(uri('verify endpoint')),
      personSearchType: opt(str()),
      personSearchUrl: opt(uri('person search endpoint')),
    },
    strict,
  ),
  document_auth_a: Type.Object(
    {
      airAccessKey: opt(str()),
      airSecretToken: opt(str()),
      airAPI: opt(uri('document authentication endpoint')),
      faceAPI: opt(uri('face match endpoint')),
      faceAPIKey: opt(str()),
      documentLivenessCheckAPI: opt(uri('document liveness endpoint')),
      document_share_session_enabled: opt(Type.Boolean()),
      accountCode: opt(str('scan sessions')),
      scan_url: opt(uri('scan session endpoint')),
      scan_cert: opt(str('JSON-stringified certificate')),
      scan_key: opt(str('JSON-stringified key')),
      scan_channelConfiguration: opt(ChannelConfiguration),
      scan_channelResponse: opt(
        Type.Array(Type.Union(CHANNEL_RESPONSE_FIELDS.map((f) => Type.Literal(f)))),
      ),
    },
    strict,
  ),
  document_auth_b: Type.Object(
    {
      clientUrl: opt(uri('OAuth token endpoint')),
      clientId: opt(str()),
      clientSecretKey: opt(str()),
      apiUrl: opt(uri('document API base')),
      apiKey: opt(str()),
      faceAPIKey: opt(str()),
      tokenConfiguration: opt(
        Type.Object({ dl: opt(TokenFlow), ppt: opt(TokenFlow), idcard: opt(TokenFlow) }, strict),
      ),
      keepTransaction: opt(Type.Boolean()),
      document_share_session_enabled: opt(Type.Boolean()),
    },
    strict,
  ),
  document_auth_c: Type.Object(
    {
      license: str(),
      clientId: str(),
      clientSecret: str(),
      verifierUrl: uri('verification endpoint'),
      verifierUrlV2: uri('verification endpoint, version 2'),
      document_share_session_enabled: Type.Boolean(),
    },
    strict,
  ),
  face_cloud: Type.Object(
    {
      awsAccessKey: opt(str('access key id of the cloud image-analysis account')),
      awsSecretKey: opt(str('secret access key')),
      awsRegion: opt(str('region, e.g. us-east-1')),
    },
    strict,
  ),
};

/**
 * What config members do, per connector type, as JSON-pointer-like paths below the config (`*`
 * standing for every item of an array):
 * - `secrets` are sealed at rest and read `********` unless the licence is a system licence;
 * - `addresses` decide, beside connectorUrl, where a provider request goes. A change of any of
 *   them (or of connectorUrl) needs every secret given again in clear, so that stored secrets
 *   never follow a new address.
 * Every `format: uri` member must be an address (contracts test); the worker's trap test checks
 * that no other member steers a request.
 */
export interface ConfigMemberRoles {
  secrets: readonly string[];
  addresses: readonly string[];
}

const apiKeyAndUrl: ConfigMemberRoles = { secrets: ['apiKey'], addresses: ['url'] };

export const CONFIG_MEMBER_ROLES: Record<ConnectorType, ConfigMemberRoles> = {
  basic_ocr: { secrets: [], addresses: [] },
  license_registry: {
    secrets: ['passphrase'],
    addresses: [
      'primaryAuthUrl',
      'primaryDLDVUrl',
      'secondaryAuthUrl',
      'secondaryDLDVUrl',
      'valueFreeDldvPrimaryUrl',
      'valueFreeDldvSecondaryUrl',
    ],
  },
  identity_data: apiKeyAndUrl,
  liveness: {
    secrets: ['apiKey', 'documentApiKey'],
    addresses: ['url', 'documentLivenessCheckAPI'],
  },
  face_compare_a: {
    secrets: ['accounts/*/apiKey'],
    addresses: ['accounts/*/url', 'accounts/*/urlVerify'],
  },
  face_compare_b: apiKeyAndUrl,
  agent_review: apiKeyAndUrl,
  auto_review: apiKeyAndUrl,
  people_search: { secrets: ['apPassword'], addresses: ['url', 'verifyUrl', 'personSearchUrl'] },
  document_auth_a: {
    secrets: ['airSecretToken', 'faceAPIKey', 'scan_cert', 'scan_key'],
    addresses: ['airAPI', 'faceAPI', 'documentLivenessCheckAPI', 'scan_url'],
  },
  document_auth_b: {
    secrets: ['clientSecretKey', 'apiKey', 'faceAPIKey'],
    addresses: ['clientUrl', 'apiUrl'],
  },
  document_auth_c: {
    secrets: ['license', 'clientSecret'],
    addresses: ['verifierUrl', 'verifierUrlV2'],
  },
  // the cloud SDK always goes to connectorUrl; the region only scopes the signature
  face_cloud: { secrets: ['awsSecretKey'], addresses: [] },
};

/** Names of secret members of any type, masked wherever they appear (a superset is harmless). */
export const SECRET_CONFIG_FIELDS: ReadonlySet<string> = new Set(
  Object.values(CONFIG_MEMBER_ROLES).flatMap((roles) =>
    roles.secrets.map((path) => path.split('/').at(-1)!),
  ),
);
