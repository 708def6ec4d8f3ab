// The load of the noisy-neighbour bench: tenant A's four workloads at steady rates (open loop, each
// call timed, a wrong answer an error), and every attack of tenant B at once, each of B's answers
// classed as the goal wants them (2xx, 429, 503 with Retry-After) or not (another status, a hang).
import { randomBytes } from 'node:crypto';
import { IdvRequestError, type IdvClient } from '@idv/client';
import { pngBomb, pngFile } from '@idv/samples/craftedImages';
import { openSession, ordinaryImages, type Tenant } from './noisyTenants.ts';

/** A's calls per second of each kind */
export const A_RATES = { verify: 4, async: 1, upload: 1, webhook: 2 } as const;
export const A_RATE = Object.values(A_RATES).reduce((sum, rate) => sum + rate, 0);
/** an answer later than this is a hang */
const HANG_MS = 35_000;
const face = Buffer.from('FACE:testy').toString('base64');

class Hung extends Error {}

async function within<T>(work: Promise<T>, ms = HANG_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<T>((_, reject) => {
    timer = setTimeout(() => reject(new Hung(`no answer in ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, hang]);
  } finally {
    clearTimeout(timer);
  }
}

export interface Series {
  latencies: number[];
  errors: number;
  firstError?: string;
}
const series = (): Series => ({ latencies: [], errors: 0 });

export const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
};

/** `op` started every 1000/rate ms until `until`, not waiting for answers (open loop). */
async function steady(rate: number, until: number, op: () => Promise<void>): Promise<void> {
  const calls: Promise<void>[] = [];
  for (let at = Date.now(); at < until; at += 1000 / rate) {
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, at - Date.now())));
    calls.push(op());
  }
  await Promise.all(calls);
}

/**
 * One of A's calls, timed into `into`: it answers true, or the latency it measured itself (a
 * webhook's from publish to arrival), or what was wrong with its answer; an exception is an error.
 */
async function timed(into: Series, call: () => Promise<true | number | string>): Promise<void> {
  const started = Date.now();
  try {
    const answer = await within(call());
    if (typeof answer === 'string') throw new Error(answer.slice(0, 300));
    into.latencies.push(typeof answer === 'number' ? answer : Date.now() - started);
  } catch (err) {
    into.errors += 1;
    into.firstError ??= (err as Error).message;
  }
}

/** 2xx; 429 or 503 with Retry-After or without; any other status; or no answer. */
function classOf(status: number | 'hung' | 'error', retryAfter?: string | null): string {
  if (typeof status === 'string') return status;
  if (status < 300) return '2xx';
  if (status !== 429 && status !== 503) return String(status);
  return retryAfter ? String(status) : `${status} without Retry-After`;
}

/**
 * B's answers by class: every one should be 2xx, 429, or 503 with Retry-After, or for an image
 * over the limits the refusal of bad input the issue asks for (413, 415, 422).
 */
export class Answers {
  readonly counts: Record<string, number> = {};
  readonly examples: Record<string, string> = {};
  record(attack: string, status: number | 'hung' | 'error', retryAfter?: string | null): void {
    const key = `${attack} ${classOf(status, retryAfter)}`;
    this.counts[key] = (this.counts[key] ?? 0) + 1;
  }
  async of(
    attack: string,
    call: () => Promise<{ status: number; headers: Headers; body?: unknown }>,
  ) {
    try {
      const res = await within(call());
      this.record(attack, res.status, res.headers.get('retry-after'));
      const expected = res.status < 300 || [413, 415, 422, 429, 503].includes(res.status);
      if (!expected)
        this.examples[`${attack} ${res.status}`] ??= JSON.stringify(res.body).slice(0, 300);
    } catch (err) {
      this.record(attack, err instanceof Hung ? 'hung' : 'error');
      this.examples[attack] ??= (err as Error).message;
    }
  }
  bad(): number {
    return Object.entries(this.counts)
      .filter(([key]) => !/ (2xx|429|503|413|415|422)$/.test(key))
      .reduce((sum, [, n]) => sum + n, 0);
  }
}

const faceRequest = (dvcID: string, id = randomBytes(4).toString('hex')) => ({
  dvcID,
  verifications: ['face_compare'],
  document: { id, type: 'dl', image1: face, image2: face },
});

/** A's four workloads at their steady rates for one phase. */
export async function victim(
  a: Tenant,
  docverifyUrl: string,
  arrivals: Map<string, number>,
  ms: number,
) {
  const until = Date.now() + ms;
  const images = await ordinaryImages();
  const s = { verify: series(), async: series(), upload: series(), webhook: series() };
  const base = `/tenant/${a.community.tenantId}/community/${a.community.id}`;
  await Promise.all([
    steady(A_RATES.verify, until, () =>
      timed(s.verify, async () => {
        const res = await a.docverify.encryptedRequest<{ status: string }>(
          'POST',
          '/verify',
          faceRequest('kyc'),
        );
        return (
          (res.status === 200 && res.body.status === 'verified') ||
          `${res.status} ${JSON.stringify(res.body)}`
        );
      }),
    ),
    steady(A_RATES.async, until, () =>
      timed(s.async, async () => {
        const { verificationId } = await a.docverify.verifyAsync(faceRequest('kyc') as never);
        const view = await a.docverify.waitForVerification(verificationId, {
          intervalMs: 100,
          timeoutMs: HANG_MS,
        });
        return (
          (view.status === 'completed' && view.result?.status === 'verified') ||
          JSON.stringify(view)
        );
      }),
    ),
    steady(A_RATES.upload, until, async () => {
      // the session link is opened before the clock starts: the upload is what is timed
      const page = await openSession(a, docverifyUrl).catch(() => undefined);
      await timed(s.upload, async () => {
        if (!page) return 'the session link did not open';
        const res = await page('PUT', '/images/front', new Uint8Array(images.front), 'image/png');
        return (
          (res.status === 200 && res.body.includes('"accepted":true')) ||
          `${res.status} ${res.body}`
        );
      });
    }),
    steady(A_RATES.webhook, until, () =>
      timed(s.webhook, async () => {
        const at = Date.now();
        const res = await a.webhooks.request<{ eventId: string }>(
          'PUT',
          `${base}/event/E_IDV_DOCUMENT_VALIDATE`,
          { dvcID: 'kyc', docType: 'passport', status: 'verified' },
        );
        if (res.status !== 202) return `${res.status} ${JSON.stringify(res.body)}`;
        while (!arrivals.has(res.body.eventId))
          await new Promise((resolve) => setTimeout(resolve, 10));
        return arrivals.get(res.body.eventId)! - at;
      }),
    ),
  ]);
  return s;
}

export const ATTACKS = ['dead', 'bombs', 'uploads', 'webhooks', 'flood'] as const;
export type Attack = (typeof ATTACKS)[number];

/**
 * B's `attacks` at once until `until`, its answers counted into `answers`: async /verify at its
 * dead and hanging verifiers, basic_ocr bombs, 16-bit PNG uploads from new session links, events
 * to its failing webhooks, and a flood of /verify at 10 times A's rate.
 */
export async function attacker(
  tenants: { b: Tenant; bFlood: IdvClient },
  docverifyUrl: string,
  until: number,
  answers: Answers,
  attacks: readonly Attack[] = ATTACKS,
): Promise<void> {
  const { b, bFlood } = tenants;
  const bomb = pngBomb();
  // under the 50 MP cap, 1 bit deep: decoded, it is 49 MP of RGBA
  const nearBomb = pngFile({ width: 7000, height: 7000, bitDepth: 1, colourType: 0 });
  // 16-bit RGBA of 12 MP: 96 MB of samples, under the 200 MB cap, a few hundred KB sent
  const heavy = pngFile({ width: 4000, height: 3000, bitDepth: 16, colourType: 6 });
  const base = `/tenant/${b.community.tenantId}/community/${b.community.id}`;
  const loop = async (op: () => Promise<void>) => {
    while (Date.now() < until) await op();
  };
  let n = 0;
  const deadRun = async () => {
    const request = faceRequest(++n % 2 ? 'kyc-dead' : 'kyc-hang');
    const body = { data: await b.docverify.encryptJson(request) };
    return b.docverify.request('POST', '/verify', body, { prefer: 'respond-async' });
  };
  const bombRequest = (image: Buffer) => ({
    dvcID: 'kyc-ocr',
    verifications: ['dl_authenticate'],
    document: { id: 'bomb', type: 'dl', barcode_image: image.toString('base64') },
  });
  const heavyUpload = async () => {
    const page = await openSession(b, docverifyUrl).catch((err: Error) => {
      // the SDK's error keeps the status, not the headers: its 429 is counted as one
      if (err instanceof IdvRequestError) answers.record('session link', err.status, 'unseen');
      else answers.record('session link', 'error');
      if (!(err instanceof IdvRequestError && err.status === 429))
        answers.examples['session link'] ??= err.message;
    });
    if (!page) return void (await new Promise((resolve) => setTimeout(resolve, 200)));
    await answers.of('16-bit PNG upload', async () => {
      const res = await page('PUT', '/images/front', new Uint8Array(heavy), 'image/png');
      const headers = new Headers(res.retryAfter ? { 'retry-after': res.retryAfter } : {});
      return { status: res.status, body: res.body, headers };
    });
  };
  const event = { dvcID: 'kyc', docType: 'passport', status: 'verified' };
  const runs: Record<Attack, () => Promise<unknown>[]> = {
    dead: () => [steady(10, until, () => answers.of('async /verify at a dead verifier', deadRun))],
    bombs: () =>
      [bomb, nearBomb].map((image) =>
        loop(() =>
          answers.of('basic_ocr bomb', () =>
            b.docverify.encryptedRequest('POST', '/verify', bombRequest(image)),
          ),
        ),
      ),
    uploads: () => [1, 2, 3].map(() => loop(heavyUpload)),
    webhooks: () => [
      steady(10, until, () =>
        answers.of('event to failing webhooks', () =>
          b.webhooks.request('PUT', `${base}/event/E_IDV_DOCUMENT_VALIDATE`, event),
        ),
      ),
    ],
    flood: () => [
      steady(10 * A_RATE, until, () =>
        answers.of('flood of /verify', () =>
          bFlood.encryptedRequest('POST', '/verify', faceRequest('kyc')),
        ),
      ),
    ],
  };
  await Promise.all(attacks.flatMap((attack) => runs[attack]()));
}
