// Checks an AWS Signature Version 4 request the way the cloud service does: the Authorization
// header's shape, the known access key, and the signature recomputed with the sandbox's secret.
import { createHash, createHmac } from 'node:crypto';
import type { Call } from './router.ts';

const AUTH =
  /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([a-z0-9-]+)\/([a-z]+)\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/;

const hmac = (key: Buffer | string, text: string) =>
  createHmac('sha256', key).update(text).digest();
const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');

export type SigV4Check =
  { ok: true; region: string } | { ok: false; type: string; message: string };

/** The parts of a request the signature covers; `url` is the target as the caller sent it. */
export type SignedRequest = Pick<Call, 'method' | 'url' | 'headers'>;

export function checkSigV4(
  req: SignedRequest,
  rawBody: Buffer,
  keys: Record<string, string>,
  service: string,
): SigV4Check {
  const header = (name: string) => String(req.headers[name] ?? '');
  const match = AUTH.exec(header('authorization'));
  const amzDate = header('x-amz-date');
  if (!match || !/^\d{8}T\d{6}Z$/.test(amzDate)) {
    return {
      ok: false,
      type: 'MissingAuthenticationTokenException',
      message: 'Missing Authentication Token',
    };
  }
  const [
    ,
    accessKey = '',
    date = '',
    region = '',
    signedService = '',
    signedHeaders = '',
    signature = '',
  ] = match;
  const secret = keys[accessKey];
  if (secret === undefined) {
    return {
      ok: false,
      type: 'UnrecognizedClientException',
      message: 'The security token included in the request is invalid.',
    };
  }
  if (
    signedService !== service ||
    !amzDate.startsWith(date) ||
    !signedHeaders.split(';').includes('host')
  ) {
    return {
      ok: false,
      type: 'InvalidSignatureException',
      message: 'Credential should be scoped correctly.',
    };
  }
  const headers = signedHeaders
    .split(';')
    .map((name) => `${name}:${header(name).trim().replace(/\s+/g, ' ')}\n`)
    .join('');
  const [path = '/', query = ''] = req.url.split('?');
  const canonicalPath = encodeURIComponent(path)
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%2F/g, '/');
  const canonical = [
    req.method,
    canonicalPath,
    query,
    headers,
    signedHeaders,
    sha256(rawBody),
  ].join('\n');
  const scope = `${date}/${region}/${service}/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonical)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${secret}`, date), region), service), 'aws4_request');
  if (hmac(key, toSign).toString('hex') !== signature) {
    return {
      ok: false,
      type: 'InvalidSignatureException',
      message: 'The request signature we calculated does not match the signature you provided.',
    };
  }
  return { ok: true, region };
}
