// The screens without a task: loading, an unknown or ended link, a network or server problem,
// processing (polls the status until the session ends) and the final screen, which sends the
// person back to the caller's redirect URL after a short delay, with a link to go at once.
import { useEffect, useState } from 'preact/hooks';
import type { CaptureApi, CaptureStatus, Failure } from '../api.ts';
import { Busy, Button, Screen } from '../components/Screen.tsx';
import { isFinalSessionState } from '@idv/contracts/sessionStates';
import { useLatest } from '../latest.ts';
import type { Strings } from '../strings/index.ts';
import type { SessionState } from '../strings/types.ts';

const POLL_MS = 1500;
const REDIRECT_MS = 5000;

export function LoadingScreen({ text }: { text: Strings }) {
  return (
    <Screen name="loading" title={text.pageTitle}>
      <Busy text={text.loading} />
    </Screen>
  );
}

export function UnknownScreen({ text }: { text: Strings }) {
  return (
    <Screen name="unknown" title={text.unknownTitle}>
      <p>{text.unknownBody}</p>
    </Screen>
  );
}

/** An ended session: what happened, and the way back to the service when the caller gave one. */
export function EndedScreen(props: {
  text: Strings;
  state: SessionState;
  redirectUrl?: string | null | undefined;
}) {
  const { text } = props;
  const ended = isFinalSessionState(props.state) ? props.state : 'expired';
  const back = safeRedirect(props.redirectUrl ?? null);
  return (
    <Screen name={`ended-${ended}`} title={text.endedTitle[ended]}>
      <p>{text.endedBody[ended]}</p>
      {back ? (
        <a class="button primary" href={back}>
          {text.backToService}
        </a>
      ) : null}
    </Screen>
  );
}

export function ProblemScreen(props: { text: Strings; failure: Failure; onRetry: () => void }) {
  const { text, failure } = props;
  const [title, body] =
    failure.kind === 'network'
      ? [text.networkTitle, text.networkBody]
      : failure.kind === 'conflict'
        ? [text.outOfStepTitle, text.outOfStepBody]
        : [text.serverTitle, text.serverBody];
  return (
    <Screen name="problem" title={title}>
      <p>{body}</p>
      <Button primary onClick={props.onRetry}>
        {text.tryAgain}
      </Button>
    </Screen>
  );
}

/** Polls GET /capture-api/status every POLL_MS until the session ends; pauses while hidden. */
export function usePollStatus(
  api: CaptureApi,
  onStatus: (status: CaptureStatus) => boolean,
  onFailure?: (failure: Failure) => void,
) {
  // the latest callbacks, without restarting the polling at each render of the parent
  const handlers = useLatest({ onStatus, onFailure });
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      const answer = await api.status();
      if (stopped) return;
      const { onStatus, onFailure } = handlers.current;
      if (answer.ok && onStatus(answer.value)) return;
      if (!answer.ok && answer.failure.kind !== 'network' && onFailure)
        return onFailure(answer.failure);
      timer = setTimeout(() => void poll(), POLL_MS);
    };
    void poll();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [api, handlers]);
}

export function ProcessingScreen(props: {
  text: Strings;
  api: CaptureApi;
  onEnd: (status: CaptureStatus) => void;
  onFailure: (failure: Failure) => void;
}) {
  usePollStatus(
    props.api,
    (status) => {
      if (!isFinalSessionState(status.state)) return false;
      props.onEnd(status);
      return true;
    },
    props.onFailure,
  );
  return (
    <Screen name="processing" title={props.text.processingTitle}>
      <Busy text={props.text.processingBody} />
    </Screen>
  );
}

/** The redirect URL when it is a web address (never javascript: or the like). */
export function safeRedirect(url: string | null): string | undefined {
  if (!url) return undefined;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : undefined;
  } catch {
    return undefined;
  }
}

export function FinalScreen(props: {
  text: Strings;
  state: 'completed' | 'failed';
  redirectUrl: string | null;
}) {
  const { text, state } = props;
  const redirect = safeRedirect(props.redirectUrl);
  const [leaving, setLeaving] = useState(false);
  useEffect(() => {
    if (!redirect) return;
    const timer = setTimeout(() => {
      setLeaving(true);
      window.location.assign(redirect);
    }, REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [redirect]);
  return (
    <Screen
      name={`final-${state}`}
      title={text.finalTitle[state]}
      icon={
        <div class={`badge badge-${state}`} aria-hidden="true">
          {state === 'completed' ? '✓' : '!'}
        </div>
      }
    >
      <p>{redirect ? text.finalBodyBack[state] : text.finalBody[state]}</p>
      {redirect ? (
        <>
          <p role="status">{leaving ? text.working : text.redirecting}</p>
          <a class="button primary" href={redirect}>
            {text.redirectLink}
          </a>
        </>
      ) : null}
    </Screen>
  );
}
