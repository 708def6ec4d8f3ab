// license_registry (dl_verify) speaks a licence data verification service: a token from the auth
// URL, then the licence checked at the DLDV URL; protocol in the sandbox's routes/dldv.ts. The
// value-free variant (match indicators only, no record values come back) is used when configured.
// Primary first; when it fails (not when it refuses) the secondary pair is tried. certPath names a
// PKCS#12 client certificate for mutual TLS in the operator's certificate directory (never a path
// on the worker), opened with passphrase; messageOriginatorId and messageDestinationId go in every
// message. Defaults: <connectorUrl>/dldv/primary/{auth,verify}.
import { randomUUID } from 'node:crypto';
import { Agent } from 'node:https';
import { createSecureContext } from 'node:tls';
import { ConfigRefused, type Adapter, type AdapterInput } from './types.ts';
import { isoDate } from './shared/documentInputs.ts';
import { asRecord, asString, defined, fieldDecision } from './shared/normalise.ts';
import { callProvider, endpoint, expectAnswer, ProviderFailure } from './shared/providerCall.ts';

interface Site {
  auth: string;
  verify: string;
}

function sitesOf(input: AdapterInput): Site[] {
  const c = input.config;
  const primary = {
    auth: endpoint(input.connectorUrl, c.primaryAuthUrl, '/dldv/primary/auth'),
    verify:
      asString(c.valueFreeDldvPrimaryUrl) ??
      endpoint(input.connectorUrl, c.primaryDLDVUrl, '/dldv/primary/verify'),
  };
  const secondaryVerify = asString(c.valueFreeDldvSecondaryUrl) ?? asString(c.secondaryDLDVUrl);
  const secondaryAuth = asString(c.secondaryAuthUrl);
  return secondaryAuth && secondaryVerify
    ? [primary, { auth: secondaryAuth, verify: secondaryVerify }]
    : [primary];
}

function licenceOf(document: Record<string, unknown>): Record<string, string | undefined> {
  const d = (field: string) => asString(document[field]);
  return defined({
    documentId: d('documentId'),
    state: d('state'),
    firstName: d('firstName'),
    middleName: d('middleName'),
    lastName: d('lastName') ?? d('familyName'),
    nameSuffix: d('nameSuffix') ?? d('suffixName'),
    dob: isoDate(document.dob),
    doe: isoDate(document.doe),
    doi: isoDate(document.doi),
    gender: d('gender'),
    height: d('height'),
    eyeColor: d('eyeColor'),
    street: d('street'),
    city: d('city'),
    zipCode: d('zipCode'),
    country: d('country'),
    documentType: d('documentType'),
    category: d('category'),
  });
}

async function ask(input: AdapterInput, site: Site, agent: Agent | undefined) {
  const ids = {
    messageOriginatorId: input.config.messageOriginatorId,
    messageDestinationId: input.config.messageDestinationId,
  };
  const tls = agent ? { httpsAgent: agent } : {};
  const auth = expectAnswer(
    await callProvider(input, 'licence registry auth', {
      method: 'POST',
      url: site.auth,
      data: ids,
      ...tls,
    }),
    'licence registry auth',
    ['access_token'],
  );
  const raw = await callProvider(input, 'licence registry', {
    method: 'POST',
    url: site.verify,
    headers: { authorization: `Bearer ${String(auth.access_token)}` },
    data: { ...ids, transactionId: randomUUID(), licence: licenceOf(input.document) },
    ...tls,
  });
  const answer = expectAnswer(raw, 'licence registry', ['recordFound', 'matches']);
  const matches = Object.fromEntries(
    Object.entries(asRecord(answer.matches)).map(([k, v]) => [k, v === 'Y']),
  );
  return { result: fieldDecision(answer.recordFound === true, matches), raw };
}

/** The mTLS agent of the configured client certificate; none without certPath. */
async function clientAgent(input: AdapterInput): Promise<Agent | undefined> {
  const certPath = asString(input.config.certPath);
  if (!certPath) return undefined;
  if (!input.clientCertificate) throw new ConfigRefused('certPath: no client certificates here');
  const pfx = await input.clientCertificate(certPath);
  let secureContext;
  try {
    secureContext = createSecureContext({
      pfx,
      passphrase: asString(input.config.passphrase) ?? '',
    });
  } catch {
    throw new ConfigRefused(`certPath: ${certPath} does not open with the passphrase`);
  }
  return new Agent({ ...(input.lookup ? { lookup: input.lookup } : {}), secureContext });
}

export const licenseRegistry: Adapter = async (input) => {
  const agent = await clientAgent(input);
  let last: unknown;
  try {
    for (const site of sitesOf(input)) {
      try {
        return await ask(input, site, agent);
      } catch (err) {
        if (!(err instanceof ProviderFailure)) throw err;
        last = err;
      }
    }
    throw last;
  } finally {
    agent?.destroy();
  }
};
