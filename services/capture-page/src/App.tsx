// The capture page as a small state machine: the session from GET /capture-api/session decides
// the screen (consent, document type, the next side to capture, submit), each action moves it
// on, and the processing screen polls the status until the session ends.
import { useCallback, useEffect, useState } from 'preact/hooks';
import type { Answer, CaptureApi, Failure } from './api.ts';
import { attemptsLeft, FINAL_STATES, reviewed, screenOf, type JourneyStep } from './journey.ts';
import { strings } from './strings/index.ts';
import type { CaptureProblem, CaptureSession, CaptureSide, SessionState } from './strings/types.ts';
import { CaptureScreen, type CaptureNotice } from './screens/Capture.tsx';
import { ConsentScreen } from './screens/Consent.tsx';
import { DocumentTypeScreen } from './screens/DocumentType.tsx';
import { HandoffScreen, wantsHandoff } from './screens/Handoff.tsx';
import { ReviewScreen } from './screens/Review.tsx';
import {
  EndedScreen,
  FinalScreen,
  LoadingScreen,
  ProblemScreen,
  ProcessingScreen,
  UnknownScreen,
} from './screens/Status.tsx';
import { NoAttemptsScreen, SubmitScreen } from './screens/Submit.tsx';

type Screen =
  | Exclude<JourneyStep, { name: 'capture' }>
  | { name: 'loading' }
  | { name: 'failure'; failure: Failure }
  | { name: 'handoff' }
  | { name: 'capture'; side: CaptureSide; notice?: CaptureNotice }
  | { name: 'review'; side: CaptureSide; image: Blob }
  | { name: 'noAttempts'; side: CaptureSide }
  | { name: 'final'; state: SessionState; redirectUrl: string | null };

export function App({ api, hasToken }: { api: CaptureApi; hasToken: boolean }) {
  const [session, setSession] = useState<CaptureSession | undefined>();
  const [screen, setScreen] = useState<Screen>({ name: 'loading' });
  const [busy, setBusy] = useState(false);
  const text = strings(session?.locale ?? navigator.language);

  const fail = (failure: Failure) => setScreen({ name: 'failure', failure });

  /** Reads the session and shows its screen; `first`: the desktop may offer the handoff. */
  const load = useCallback(
    async (first = false) => {
      if (!hasToken) return fail({ kind: 'unknown' });
      const answer = await api.session();
      if (!answer.ok) return fail(answer.failure);
      setSession(answer.value);
      const next = screenOf(answer.value);
      setScreen(first && next.name !== 'processing' && wantsHandoff() ? { name: 'handoff' } : next);
    },
    [api, hasToken],
  );

  useEffect(() => {
    void load(true);
  }, [load]);

  /** Runs an action with the buttons disabled; a failure shows its screen. */
  async function act<T>(call: () => Promise<Answer<T>>): Promise<T | undefined> {
    setBusy(true);
    try {
      const answer = await call();
      if (answer.ok) return answer.value;
      fail(answer.failure);
      return undefined;
    } finally {
      setBusy(false);
    }
  }

  async function send(side: CaptureSide, image: Blob) {
    if (!session) return;
    setBusy(true);
    const answer = await api.image(side, image).finally(() => setBusy(false));
    if (!answer.ok) {
      const { failure } = answer;
      if (failure.kind === 'tooLarge' || failure.kind === 'wrongType')
        return setScreen({ name: 'capture', side, notice: { kind: failure.kind } });
      if (failure.kind === 'conflict')
        return attemptsLeft(session, side) <= 1
          ? setScreen({ name: 'noAttempts', side })
          : setScreen({ name: 'capture', side, notice: { kind: 'notAllowed' } });
      return fail(failure);
    }
    const verdict = answer.value;
    if (verdict.accepted) return load();
    const updated = { ...session, attempts: { ...session.attempts, [side]: (session.attempts[side] ?? 0) + 1 } };
    setSession(updated);
    if (verdict.attemptsLeft === 0) return setScreen({ name: 'noAttempts', side });
    const problems = verdict.problems.map((p) => p.code as CaptureProblem);
    setScreen({ name: 'capture', side, notice: { kind: 'problems', problems, attemptsLeft: verdict.attemptsLeft } });
  } // prettier-ignore

  function captured(side: CaptureSide, image: Blob) {
    if (session && reviewed(session, side)) setScreen({ name: 'review', side, image });
    else void send(side, image);
  }

  async function submit() {
    const status = await act(() => api.submit());
    if (status) setScreen({ name: 'processing' });
  }

  switch (screen.name) {
    case 'loading':
      return <LoadingScreen text={text} />;
    case 'failure': {
      const { failure } = screen;
      if (failure.kind === 'unknown') return <UnknownScreen text={text} />;
      if (failure.kind === 'ended') return <EndedScreen text={text} state={failure.state} />;
      return <ProblemScreen text={text} failure={failure} onRetry={() => void load()} />;
    }
    case 'handoff':
      return session ? (
        <HandoffScreen
          text={text}
          api={api}
          url={session.handoffUrl}
          onHere={() => void load()}
          onStatus={(status) => {
            if (FINAL_STATES.includes(status.state))
              setScreen({ name: 'final', state: status.state, redirectUrl: status.redirectUrl });
            else if (status.state === 'submitted' || status.state === 'processing')
              setScreen({ name: 'processing' });
          }}
        />
      ) : null;
    case 'consent':
      return session ? (
        <ConsentScreen
          text={text}
          version={session.consent.textVersion}
          busy={busy}
          onAccept={async () => {
            if (await act(() => api.consent(session.consent.textVersion))) await load();
          }}
        />
      ) : null;
    case 'documentType':
      return session ? (
        <DocumentTypeScreen
          text={text}
          types={session.documentTypes}
          busy={busy}
          onChoose={async (type) => {
            if (await act(() => api.documentType(type))) await load();
          }}
        />
      ) : null;
    case 'capture':
      return session ? (
        <CaptureScreen
          key={`${screen.side}-${session.attempts[screen.side] ?? 0}`}
          text={text}
          side={screen.side}
          step={session.sides.indexOf(screen.side) + 1}
          steps={session.sides.length}
          attemptsLeft={attemptsLeft(session, screen.side)}
          maxImageBytes={session.settings.maxImageBytes}
          autoCapture={screen.side === 'selfie' && session.settings.selfieCaptureMode === 'auto'}
          notice={screen.notice}
          busy={busy}
          onCaptured={(image) => captured(screen.side, image)}
          onNotice={(notice) => setScreen({ name: 'capture', side: screen.side, notice })}
        />
      ) : null;
    case 'review':
      return (
        <ReviewScreen
          text={text}
          image={screen.image}
          busy={busy}
          onRetake={() => setScreen({ name: 'capture', side: screen.side })}
          onUse={() => void send(screen.side, screen.image)}
        />
      );
    case 'noAttempts':
      return session ? (
        <NoAttemptsScreen
          text={text}
          onContinue={() => {
            const next = screenOf(session);
            setScreen(next.name === 'submit' ? { name: 'submit' } : next);
          }}
        />
      ) : null;
    case 'submit':
      return session ? (
        <SubmitScreen
          text={text}
          missing={session.sides.filter((s) => !session.accepted[s])}
          busy={busy}
          onSubmit={() => void submit()}
        />
      ) : null;
    case 'processing':
      return (
        <ProcessingScreen
          text={text}
          api={api}
          onEnd={(status) =>
            setScreen({ name: 'final', state: status.state, redirectUrl: status.redirectUrl })
          }
          onFailure={fail}
        />
      );
    case 'final':
      return screen.state === 'completed' || screen.state === 'failed' ? (
        <FinalScreen text={text} state={screen.state} redirectUrl={screen.redirectUrl} />
      ) : (
        <EndedScreen text={text} state={screen.state} />
      );
  }
}
