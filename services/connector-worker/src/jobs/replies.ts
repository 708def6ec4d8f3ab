// The three shapes of a connector reply.
import type { ConnectorReply } from '@idv/contracts';

type ReplyBase = Pick<ConnectorReply, 'jobId' | 'kind' | 'verifierTag' | 'authority'>;

export function answered(
  base: ReplyBase,
  outcome: ConnectorReply['outcome'],
  latencyMs: number,
  extra: { result?: ConnectorReply['result']; rawSealed?: string | undefined } = {},
): ConnectorReply {
  const reply: ConnectorReply = { ...base, outcome, latencyMs };
  if (extra.result) reply.result = extra.result;
  if (extra.rawSealed !== undefined) reply.rawSealed = extra.rawSealed;
  return reply;
}

/** The input was refused (by us or the provider): the next verifier would refuse it too. */
export function refusal(
  base: ReplyBase,
  code: string,
  message: string,
  latencyMs: number,
): ConnectorReply {
  return { ...base, outcome: 'invalid_request', error: { code, message }, latencyMs };
}

/** The provider could not answer: the gateway fails over to the next verifier. */
export function unavailable(
  base: ReplyBase,
  code: string,
  message: string,
  latencyMs: number,
): ConnectorReply {
  return { ...base, outcome: 'provider_unavailable', error: { code, message }, latencyMs };
}
