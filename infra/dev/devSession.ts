// `make run`'s ready verification session: verifiers of the dev community pointing at the provider
// sandbox, a verification config `dev-session` that runs the face journey, a fresh session whose
// page URL is printed, and sample images the sandbox recognises (Testy McTestface's licence and
// selfie) to upload through the page's file inputs.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { IdvClient } from '@idv/client';
// the generator the session tests use: real PNG/JPEG pictures that carry the sandbox's fixture names
import { jpeg, png, selfieImage } from '@idv/samples/captureImages';
import { licenceBack, licenceFront } from '@idv/samples/idDocuments';
import type { DevCredentials } from './devCredentials.ts';

export const DEV_SESSION_CONFIG = 'dev-session';
const SAMPLES = '.local/samples';

export interface DevSession {
  url: string;
  sessionId: string;
  samples: string;
}

/** PUT that may find the thing made by an earlier run (409): fine either way. */
async function ensure(client: IdvClient, path: string, body: object): Promise<void> {
  const res = await client.request('PUT', path, body);
  if (res.status !== 200 && res.status !== 409)
    throw new Error(`PUT ${path}: ${res.status} ${JSON.stringify(res.body)}`);
}

async function writeSamples(): Promise<string> {
  mkdirSync(SAMPLES, { recursive: true });
  const files: Record<string, Buffer> = {
    'licence-front.png': await png(licenceFront(), 'DOC:testy', 'FACE:testy'),
    'licence-back.png': await png(await licenceBack(), 'DOC:testy'),
    'selfie.jpg': await jpeg(selfieImage(), 'FACE:testy'),
    'selfie-of-someone-else.jpg': await jpeg(selfieImage(480, 640, 5), 'FACE:fakey'),
  };
  for (const [name, bytes] of Object.entries(files)) writeFileSync(join(SAMPLES, name), bytes);
  return SAMPLES;
}

export async function devSession(
  credentials: DevCredentials,
  docverifyUrl: string,
  sandboxUrl: string,
): Promise<DevSession> {
  const client = new IdvClient({
    baseUrl: docverifyUrl,
    licenseKey: credentials.licences.service,
    keyPair: credentials.caller,
  });
  const community = credentials.community.id;
  const verifier = (tag: string, type: string, config: object) =>
    ensure(client, `/verifier/community/${community}`, {
      name: tag,
      tag,
      type,
      connectorUrl: sandboxUrl,
      config,
    });
  await verifier('dev-documents', 'auto_review', { apiKey: 'sandbox-key' });
  await verifier('dev-faces', 'face_compare_b', { apiKey: 'sandbox-key' });
  await verifier('dev-liveness', 'liveness', {
    apiKey: 'sandbox-key',
    documentApiKey: 'sandbox-key',
  });
  const documents = [{ verifier: 'dev-documents' }];
  await ensure(client, `/verificationConfig/community/${community}`, {
    tenantId: credentials.tenant.id,
    tag: DEV_SESSION_CONFIG,
    name: 'make run: the face journey against the provider sandbox',
    dl_authenticate: documents,
    idcard_authenticate: documents,
    ppt_authenticate: documents,
    document_liveness: [{ verifier: 'dev-liveness' }],
    face_compare: [{ verifier: 'dev-faces' }],
    face_liveness: [{ verifier: 'dev-liveness' }],
  });
  const session = await client.createSession(DEV_SESSION_CONFIG, {
    metadata: { source: 'make run' },
  });
  return { url: session.url, sessionId: session.sessionId, samples: await writeSamples() };
}
