// license_registry (dl_verify) speaks a licence data verification service: a token from the auth
// URL, then the licence checked at the DLDV URL; protocol in the sandbox's routes/dldv.ts. The
// value-free variant (match indicators only, no record values come back) is used when configured.
// Primary first; when it fails (not when it refuses) the secondary pair is tried. certPath names a
// PKCS#12 client certificate for mutual TLS in the operator's certificate directory (never a path
// on the worker), opened with passphrase; messageOriginatorId and messageDestinationId go in every
// message. Defaults: <connectorUrl>/dldv/primary/{auth,verify}. A site's token serves every job
// until shortly before it expires (shared/accessTokens.ts), for the verifier's account only: the
// key holds the job's account, the certificate's bytes and both URLs of the site.
import { randomUUID } from 'node:crypto';
import type { Dispatcher } from 'undici';
import { ProviderUnavailable, Refused } from '../../outcomes.ts';
import { within } from '../../provider/accounts.ts';
import { MtlsAgents } from '../../provider/mtlsAgents.ts';
import type { Adapter, AdapterInput, WorkerConnector } from '../connector.ts';
import { isoDate } from '../shared/documentInputs.ts';
import { AccessTokens } from '../shared/accessTokens.ts';
import { asNumber, asRecord, asString, defined, fieldDecision } from '../shared/normalise.ts';
import { callProvider, endpoint, expectAnswer } from '../shared/providerCall.ts';

type Input = AdapterInput<'license_registry'>;

interface Site {
  auth: string;
  verify: string;
}

function sitesOf(input: Input): Site[] {
  const c = input.config;
  const primary = {
    auth: endpoint(input.connectorUrl, c.primaryAuthUrl, '/dldv/primary/auth'),
    verify:
      c.valueFreeDldvPrimaryUrl ??
      endpoint(input.connectorUrl, c.primaryDLDVUrl, '/dldv/primary/verify'),
  };
  const secondaryVerify = c.valueFreeDldvSecondaryUrl ?? c.secondaryDLDVUrl;
  const secondaryAuth = c.secondaryAuthUrl;
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

/** The client certificate a job presents: its bytes and the dispatcher that presents them. */
interface ClientTls {
  pfx: Buffer;
  agent: Dispatcher;
}

async function ask(input: Input, site: Site, tls: ClientTls | undefined, tokens: AccessTokens) {
  const ids = {
    messageOriginatorId: input.config.messageOriginatorId,
    messageDestinationId: input.config.messageDestinationId,
  };
  const through = tls ? { dispatcher: tls.agent } : {};
  // fetched for no one job (the client's own timeouts bound it): every job of the site shares it
  const token = async () => {
    const auth = expectAnswer(
      await callProvider({ http: input.http }, 'licence registry auth', {
        method: 'POST',
        url: site.auth,
        data: ids,
        ...through,
      }),
      'licence registry auth',
      ['access_token'],
    );
    return { token: String(auth.access_token), expiresInS: asNumber(auth.expires_in) };
  };
  const verify = (accessToken: string) =>
    callProvider(input, 'licence registry', {
      method: 'POST',
      url: site.verify,
      headers: { authorization: `Bearer ${accessToken}` },
      data: { ...ids, transactionId: randomUUID(), licence: licenceOf(input.document) },
      ...through,
    });
  const key = within(input.account, tls?.pfx, site.auth, site.verify);
  const raw = await tokens.use(key, token, verify);
  const answer = expectAnswer(raw, 'licence registry', ['recordFound', 'matches']);
  const matches = Object.fromEntries(
    Object.entries(asRecord(answer.matches)).map(([k, v]) => [k, v === 'Y']),
  );
  return { result: fieldDecision(answer.recordFound === true, matches), raw };
}

/** The license_registry adapter of one worker; its mTLS dispatchers live as long as the worker. */
function createLicenseRegistry(
  agents: MtlsAgents,
  tokens: AccessTokens,
): Adapter<'license_registry'> {
  /** The configured client certificate and its mTLS dispatcher; none without certPath. */
  const clientTls = async (input: Input): Promise<ClientTls | undefined> => {
    const certPath = input.config.certPath;
    if (!certPath) return undefined;
    if (!input.clientCertificate)
      throw new Refused('invalid_config', 'certPath: no client certificates here');
    const pfx = await input.clientCertificate(certPath);
    return { pfx, agent: agents.of(input.account, pfx, input.config.passphrase ?? '', certPath) };
  };
  return async (input) => {
    const tls = await clientTls(input);
    let last: unknown;
    for (const site of sitesOf(input)) {
      try {
        return await ask(input, site, tls, tokens);
      } catch (err) {
        if (!(err instanceof ProviderUnavailable)) throw err;
        last = err;
      }
    }
    throw last;
  };
}

export const connector: WorkerConnector<'license_registry'> = {
  type: 'license_registry',
  start: ({ http }) => {
    const agents = new MtlsAgents((tls) => http.dispatcherWith(tls));
    const adapter = createLicenseRegistry(agents, new AccessTokens());
    return { adapter, close: () => agents.close() };
  },
};
