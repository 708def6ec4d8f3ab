// A capture page token never reaches a log line, however a request spells the path that carries it:
// any case (Express routes /CAPTURE/<token> to the page), percent-encoded segments or characters,
// doubled or back slashes, trailing slashes and further segments, the token again in the query, and
// the token sent to the other services' paths. Raw HTTP, so nothing normalises the path first.
import { expect } from 'chai';
import { request } from 'node:http';
import { captureServiceLogs, type LogCapture } from '@idv/testing/logCapture';
import { eventually } from '@idv/testing/eventually';
import { startSessionWorld, type SessionWorld } from '@idv/testing/sessionWorld';

/** One request with the path exactly as given; its status. */
function raw(base: string, method: string, path: string, reqId: string): Promise<number> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: hostname,
        port,
        method,
        path,
        headers: { 'x-request-id': reqId, accept: 'text/html' },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('security: no capture page token in any log line, whatever the spelling of its path', function () {
  this.timeout(90_000);
  let w: SessionWorld;
  let capture: LogCapture;
  let token: string;

  before(async () => {
    capture = captureServiceLogs();
    w = await startSessionWorld({ name: 'token-logs', platform: { LOG_LEVEL: 'trace' } });
    const created = await w
      .client('service')
      .createSession('kyc-session', { userUID: 'user-testy-logs' });
    token = new URL(created.url).pathname.split('/').at(-1)!;
  });
  after(async () => {
    capture?.restore();
    await w?.stop();
  });

  it('masks the token in the access log of every spelling, on all three services', async () => {
    const t = token;
    const first = `%${t.charCodeAt(0).toString(16).toUpperCase()}${t.slice(1)}`;
    const docverify: [string, string, number][] = [
      ['GET', `/CAPTURE/${t}`, 200],
      ['GET', `/Capture/${t}/`, 200],
      ['GET', `/capture/${first}`, 200],
      ['HEAD', `/cApTuRe/${t}`, 200],
      ['GET', `/capture/${t}?token=${t}`, 200],
      ['POST', `/CAPTURE/${t}`, 405],
      ['GET', `/Capture/${t}/more`, 404],
      ['GET', `/%63apture/${t}`, 404],
      ['GET', `/%43APTURE/${first}`, 404],
      ['GET', `/capture%2F${t}`, 404],
      ['GET', `/capture%2f${t}%2F`, 404],
      ['GET', `/%2563apture/${t}`, 404],
      ['GET', `//capture//${t}`, 404],
      ['GET', `/capture\\${t}`, 404],
      ['GET', `/CAPTURE/ASSETS/${t}`, 404],
      ['GET', `/capture/assets/${t}/x`, 404],
      ['GET', `/capture-api/status?token=${t}`, 401],
      ['GET', `/somewhere/${t}`, 404],
    ];
    const others: [string, string][] = [
      [
        w.platform.services.webhooks.url,
        `/tenant/${w.platform.community.tenantId}/community/${w.platform.community.id}/webhook/${t}`,
      ],
      [w.platform.services.webhooks.url, `/${t}?t=${t}`],
      [
        w.platform.services.oauth.url,
        `/community/${w.platform.community.name}/v1/interaction/${t}`,
      ],
      [w.platform.services.oauth.url, `/capture/${t}`],
    ];
    const ids: string[] = [];
    for (const [i, [method, path, status]] of docverify.entries()) {
      ids.push(`token-logs-${i}`);
      expect(await raw(w.url, method, path, ids.at(-1)!), `${method} ${path}`).to.equal(status);
    }
    for (const [i, [base, path]] of others.entries()) {
      ids.push(`token-logs-other-${i}`);
      await raw(base, 'GET', path, ids.at(-1)!);
    }
    // access lines are written on finish, after the answer: wait for every one of them
    const accessOf = () =>
      capture.lines.filter((l) => ids.some((id) => l.includes(`"reqId":"${id}"`)));
    await eventually('every access line', () => accessOf().length >= ids.length, {
      timeoutMs: 10_000,
      intervalMs: 25,
    });

    const access = accessOf();
    for (const id of ids)
      expect(
        access.some((l) => l.includes(`"${id}"`)),
        `access line of ${id}`,
      ).to.equal(true);
    expect(access.filter((l) => l.includes('"path":"/capture/:token"')).length).to.be.at.least(14);
    // no piece of the token either: 12 characters of it anywhere are a leak
    const pieces = Array.from({ length: t.length - 11 }, (_, i) => t.slice(i, i + 12));
    const leaks = capture.lines.filter((l) => pieces.some((p) => l.includes(p)));
    expect(leaks).to.deep.equal([]);
  });
});
