// What a connector job says about following up a "not final yet" answer: the run it settles, the
// queue of final answers, the deadline and the callback address the provider may use. Only types
// with followUps get one; the others answer final or inconclusive as before.
import { FOLLOW_UP_TYPES, type ConnectorJob, type VerificationKind } from '@idv/contracts';

export interface FollowUpSettings {
  /** the queue every replica consumes final answers from (DOCVERIFY_FOLLOWUPS_QUEUE) */
  answerTo: string;
  /** PENDING_FOLLOW_UP_MS */
  deadlineMs: number;
  /** CONNECTOR_CALLBACK_URL: providers call back under it; empty: they are polled only */
  callbackBaseUrl: string;
}

/** The provider's callback address for one pending kind of one run. */
export function callbackUrlOf(
  baseUrl: string,
  verifierId: string,
  verificationId: string,
  kind: VerificationKind,
): string {
  const url = new URL(`${baseUrl.replace(/\/+$/, '')}/connector-callback/${verifierId}`);
  url.searchParams.set('verificationId', verificationId);
  url.searchParams.set('kind', kind);
  return url.toString();
}

export function followUpOf(
  settings: FollowUpSettings | undefined,
  verificationId: string | undefined,
  kind: VerificationKind,
  verifier: { id: string; type: ConnectorJob['verifier']['type'] },
): ConnectorJob['followUp'] {
  if (!settings || !verificationId || !FOLLOW_UP_TYPES.includes(verifier.type)) return undefined;
  return {
    verificationId,
    answerTo: settings.answerTo,
    deadline: Date.now() + settings.deadlineMs,
    ...(settings.callbackBaseUrl
      ? { callbackUrl: callbackUrlOf(settings.callbackBaseUrl, verifier.id, verificationId, kind) }
      : {}),
  };
}
