// One capture check taken from the queue: the request is validated, its image opened (sealed under
// MASTER_KEY, context its check id), checked by the engine within this worker's bounds, and the
// verdict is the reply. A request past its deadline is not checked (its gateway answered
// check_unavailable already). A request that does not validate or open gets an error reply, which
// the gateway turns into check_unavailable; no image is ever dead-lettered (it is personal data),
// and none is logged.
import { CaptureCheckRequest, validate, type CaptureCheckReply } from '@idv/contracts';
import { checkUnavailable, type CheckCapture } from '@idv/capture-checks';
import type { SecretBox } from '@idv/crypto';
import type { MessageHandler } from '@idv/broker';
import { Counter, Histogram, type Registry } from '@idv/observability';

/** What a check is given to run once it may: a 12 MP photo's takes about 0.5 s, a costly one up
 *  to its measure's limit; a check waiting for its share starts no later than this before its
 *  deadline. */
const CHECK_TIME_MS = 5_000;

export type Verdict = 'accepted' | 'problem' | 'unavailable' | 'expired' | 'invalid';

export interface CheckMetrics {
  checks: Counter<'verdict'>;
  duration: Histogram<'verdict'>;
}

export function checkMetrics(registry: Registry): CheckMetrics {
  return {
    checks: new Counter({
      name: 'capture_checks_total',
      help: 'capture checks taken from the queue, by verdict (unavailable: over a bound or out of time; expired: past its deadline when taken)',
      labelNames: ['verdict'],
      registers: [registry],
    }),
    duration: new Histogram({
      name: 'capture_check_seconds',
      help: 'time of one capture check in this worker, by verdict',
      labelNames: ['verdict'],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30],
      registers: [registry],
    }),
  };
}

export interface CheckHandlerDeps {
  box: SecretBox;
  check: CheckCapture;
  metrics: CheckMetrics;
}

export function createCheckHandler(deps: CheckHandlerDeps): MessageHandler {
  return async (body): Promise<CaptureCheckReply> => {
    const started = process.hrtime.bigint();
    const count = (verdict: Verdict) => {
      deps.metrics.checks.inc({ verdict });
      deps.metrics.duration.observe({ verdict }, Number(process.hrtime.bigint() - started) / 1e9);
    };
    const done = (verdict: Verdict, reply: CaptureCheckReply): CaptureCheckReply => {
      count(verdict);
      return reply;
    };
    const parsed = validate(CaptureCheckRequest, body);
    if (!parsed.ok) {
      count('invalid');
      const issue = parsed.issues[0];
      throw new Error(`invalid capture check request: ${issue?.path} ${issue?.message}`);
    }
    const request = parsed.value;
    if (Date.now() >= request.deadline)
      return done('expired', { problems: [checkUnavailable('the check was taken too late')] });
    let image: Buffer;
    try {
      image = deps.box.openBytes(Buffer.from(request.image, 'base64'), request.checkId);
    } catch {
      count('invalid');
      throw new Error('the image of the capture check does not open under this MASTER_KEY');
    }
    // over its tenant's share, a check may wait for it while its gateway still would have time
    // for the check itself
    const waitUntil = request.deadline - CHECK_TIME_MS;
    const report = await deps.check(request.side, image, request.journey, request.owner, waitUntil);
    const reply: CaptureCheckReply = {
      problems: report.problems,
      ...(report.measures ? { measures: report.measures } : {}),
      ...(report.notes ? { notes: report.notes } : {}),
    };
    const codes = report.problems.map((p) => p.code);
    const verdict: Verdict =
      codes.length === 0
        ? 'accepted'
        : codes.includes('check_unavailable')
          ? 'unavailable'
          : 'problem';
    return done(verdict, reply);
  };
}
