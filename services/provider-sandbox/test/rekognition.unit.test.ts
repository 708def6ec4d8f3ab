// The sandbox's CompareFaces over real sockets, signed as the cloud SDK signs (AWS Signature
// Version 4, computed here on its own): bodies it cannot read are a 400 with the service's error
// shape, never a 500, and a good call answers the match.
import { createHash, createHmac } from 'node:crypto';
import { expect } from 'chai';
import { CLOUD_ACCESS_KEY, CLOUD_SECRET_KEY } from '../src/fixtures.ts';
import { startSandbox, type RunningSandbox } from '../src/start.ts';

const hmac = (key: Buffer | string, text: string) =>
  createHmac('sha256', key).update(text).digest();
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** The headers of a CompareFaces call to `host` with `body`, signed for eu-west-1. */
function signed(host: string, body: string): Record<string, string> {
  const amzDate = new Date()
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
  const date = amzDate.slice(0, 8);
  const headers: Record<string, string> = {
    'content-type': 'application/x-amz-json-1.1',
    host,
    'x-amz-date': amzDate,
    'x-amz-target': 'RekognitionService.CompareFaces',
  };
  const names = Object.keys(headers).sort();
  const canonical = [
    'POST',
    '/',
    '',
    names.map((n) => `${n}:${headers[n]}\n`).join(''),
    names.join(';'),
    sha256(body),
  ].join('\n');
  const scope = `${date}/eu-west-1/rekognition/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonical)].join('\n');
  const key = hmac(
    hmac(hmac(hmac(`AWS4${CLOUD_SECRET_KEY}`, date), 'eu-west-1'), 'rekognition'),
    'aws4_request',
  );
  const signature = hmac(key, toSign).toString('hex');
  return {
    ...headers,
    authorization: `AWS4-HMAC-SHA256 Credential=${CLOUD_ACCESS_KEY}/${scope}, SignedHeaders=${names.join(';')}, Signature=${signature}`,
  };
}

describe('provider sandbox: CompareFaces', function () {
  this.timeout(10_000);
  let sandbox: RunningSandbox;
  before(async () => {
    sandbox = await startSandbox(0);
  });
  after(async () => sandbox?.close());

  const compare = async (body: string, headers = signed(new URL(sandbox.url).host, body)) => {
    const res = await fetch(`${sandbox.url}/`, { method: 'POST', headers, body });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const face = Buffer.from('FACE:testy').toString('base64');

  it('answers the match of a signed call', async () => {
    const body = JSON.stringify({ SourceImage: { Bytes: face }, TargetImage: { Bytes: face } });
    const got = await compare(body);
    expect(got.status).to.equal(200);
    expect(got.body.FaceMatches).to.have.length(1);
  });

  for (const body of ['null', '[1]', '7', '"text"']) {
    it(`refuses the JSON ${body} with a 400 SerializationException`, async () => {
      expect(await compare(body)).to.deep.equal({
        status: 400,
        body: { __type: 'SerializationException', message: 'body is not a JSON object' },
      });
    });
  }

  it('refuses a signature made with another body (403)', async () => {
    const headers = signed(new URL(sandbox.url).host, '{}');
    const got = await compare('null', headers);
    expect(got.status).to.equal(403);
    expect(got.body.__type).to.equal('InvalidSignatureException');
  });
});
