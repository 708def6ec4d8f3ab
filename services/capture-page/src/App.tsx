// The capture page as a small state machine: the session from GET /capture-api/session decides
// the screen (consent, document type, the next side to capture, submit), each action moves it
// on, and the processing screen polls the status until the session ends. Each step the person
// takes is an entry of the browser's history, so Back moves within the flow: to the document
// choice while the caller did not fix it, else to where the session stands.
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import type { Answer, CaptureApi, Failure } from './api.ts';
import { isFinalSessionState } from '@idv/contracts/sessionStates';
import type { UploadProgress } from './components/Upload.tsx';
import { attemptsLeft, attemptsUsed, reviewed, screenOf, type JourneyStep } from './journey.ts';
import { pickLocale, strings } from './strings/index.ts';
import { storedLanguage, storeLanguage } from './components/Languages.tsx';
import { TopBar } from './components/TopBar.tsx';
import type { CaptureProblem, CaptureSession, CaptureSide, SessionState } from './strings/types.ts';
import { CaptureScreen, type CaptureNotice } from './screens/Capture.tsx';
import { ConsentScreen } from './screens/Consent.tsx';
import { DocumentTypeScreen } from './screens/DocumentType.tsx';
import { HandoffScreen, stayHere, wantsHandoff } from './screens/Handoff.tsx';
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
  | Exclude<JourneyStep, { name: 'capture' } | { name: 'noAttempts' }>
  | { name: 'loading' }
  | { name: 'failure'; failure: Failure }
  | { name: 'handoff' }
  | { name: 'capture'; side: CaptureSide; notice?: CaptureNotice }
  | { name: 'review'; side: CaptureSide; image: Blob }
  | { name: 'noAttempts'; side: CaptureSide; problems: CaptureProblem[] }
  | { name: 'final'; state: SessionState; redirectUrl: string | null };

/** The history entry of a screen the person acts on; undefined for the others. */
function stepOf(screen: Screen): string | undefined {
  if (screen.name === 'capture' || screen.name === 'review') return `${screen.name}:${screen.side}`;
  return screen.name === 'documentType' || screen.name === 'submit' ? screen.name : undefined;
}

export function App({ api, hasToken }: { api: CaptureApi; hasToken: boolean }) {
  const [session, setSession] = useState<CaptureSession | undefined>();
  const [screen, setScreen] = useState<Screen>({ name: 'loading' });
  const [busy, setBusy] = useState(false);
  const [upload, setUpload] = useState<UploadProgress | undefined>();
  const sending = useRef<AbortController | undefined>(undefined);
  const [language, setLanguage] = useState(storedLanguage);
  const locale = pickLocale(language, session?.locale, ...navigator.languages);
  const text = strings(locale);
  useEffect(() => {
    document.documentElement.lang = locale;
  }, [locale]);

  const fail = (failure: Failure) => setScreen({ name: 'failure', failure });

  /** A side out of attempts ends the journey at once: the session is sure to fail. */
  const end = useCallback(
    (side: CaptureSide, problems: CaptureProblem[]) => {
      setScreen({ name: 'noAttempts', side, problems });
      void api.submit();
    },
    [api],
  );

  /** Reads the session and shows its screen; `first`: the desktop may offer the handoff. */
  const load = useCallback(
    async (first = false) => {
      if (!hasToken) return fail({ kind: 'unknown' });
      const answer = await api.session();
      if (!answer.ok) return fail(answer.failure);
      setSession(answer.value);
      const next = screenOf(answer.value);
      if (next.name === 'noAttempts') return end(next.side, []);
      setScreen(first && next.name !== 'processing' && wantsHandoff() ? { name: 'handoff' } : next);
    },
    [api, hasToken, end],
  );

  useEffect(() => {
    void load(true);
  }, [load]);

  const step = stepOf(screen);
  useEffect(() => {
    if (step && (history.state as { step?: string } | null)?.step !== step)
      history.pushState({ step }, '', location.href);
  }, [step]);
  useEffect(() => {
    const back = (event: PopStateEvent) => {
      const to = (event.state as { step?: string } | null)?.step;
      if (to === 'documentType' && session && !session.documentFixed && !busy)
        setScreen({ name: 'documentType' });
      else void load();
    };
    addEventListener('popstate', back);
    return () => removeEventListener('popstate', back);
  }, [session, busy, load]);

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

  /**
   * The journey ends: a side is out of attempts, so the session is sure to fail. It is submitted
   * at once (the other sides are not asked for) and the reason stays on the screen.
   */
  async function send(side: CaptureSide, image: Blob) {
    if (!session) return;
    const controller = new AbortController();
    sending.current = controller;
    setBusy(true);
    setUpload({ sent: 0, total: image.size });
    const answer = await api
      .image(side, image, {
        signal: controller.signal,
        onProgress: (sent, total) => setUpload({ sent, total }),
      })
      .finally(() => {
        sending.current = undefined;
        setUpload(undefined);
        setBusy(false);
      });
    if (!answer.ok) {
      const { failure } = answer;
      if (failure.kind === 'tooLarge' || failure.kind === 'wrongType')
        return setScreen({ name: 'capture', side, notice: { kind: failure.kind } });
      if (failure.kind === 'cancelled')
        return setScreen({ name: 'capture', side, notice: { kind: 'stopped' } });
      if (failure.kind === 'network' || failure.kind === 'timeout') {
        // the photo may have arrived before the line dropped: the attempts as the server counts them
        const fresh = await api.session();
        if (fresh.ok) setSession(fresh.value);
        return setScreen({ name: 'capture', side, notice: { kind: 'sendFailed' } });
      }
      if (failure.kind === 'conflict')
        return attemptsLeft(session, side) <= 1
          ? end(side, [])
          : setScreen({ name: 'capture', side, notice: { kind: 'notAllowed' } });
      return fail(failure);
    }
    const verdict = answer.value;
    // the attempts as the server counts them (a check that did not run costs none) and the side
    // accepted: the verdict says all that changed, so the next screen needs no second round trip
    // (0.6 s a side on a slow phone line)
    const counted: CaptureSession = {
      ...session,
      attempts: { ...session.attempts, [side]: attemptsUsed(session, side, verdict.attemptsLeft) },
      accepted: { ...session.accepted, [side]: session.accepted[side] || verdict.accepted },
    };
    setSession(counted);
    if (verdict.accepted) {
      const next = screenOf(counted);
      return next.name === 'noAttempts' ? end(next.side, []) : setScreen(next);
    }
    const problems = verdict.problems.map((p) => p.code as CaptureProblem);
    if (verdict.attemptsLeft === 0) return end(side, problems);
    setScreen({
      name: 'capture',
      side,
      notice: { kind: 'problems', problems, attemptsLeft: verdict.attemptsLeft },
    });
  }

  function captured(side: CaptureSide, image: Blob) {
    if (session && reviewed(session, side)) setScreen({ name: 'review', side, image });
    else void send(side, image);
  }

  async function submit() {
    const status = await act(() => api.submit());
    if (status) setScreen({ name: 'processing' });
  }

  return (
    <>
      <TopBar
        text={text}
        branding={session?.branding}
        locale={locale}
        onLanguage={(code) => {
          storeLanguage(code);
          setLanguage(code);
        }}
      />
      {body()}
    </>
  );

  function body() {
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
            onHere={() => {
              stayHere();
              void load();
            }}
            onStatus={(status) => {
              if (isFinalSessionState(status.state))
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
            privacyPolicyUrl={session.branding?.privacyPolicyUrl}
            business={session.branding?.name}
            version={session.consent.textVersion}
            busy={busy}
            onAccept={async () => {
              if (await act(() => api.consent(session.consent.textVersion))) await load();
            }}
            onDecline={async () => {
              const status = await act(() => api.decline());
              if (status)
                setScreen({ name: 'final', state: status.state, redirectUrl: status.redirectUrl });
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
            upload={upload}
            onCancel={() => sending.current?.abort()}
            onOtherDocument={
              session.documentFixed || screen.side === 'selfie'
                ? undefined
                : () => setScreen({ name: 'documentType' })
            }
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
            upload={upload}
            onCancel={() => sending.current?.abort()}
            onRetake={() => setScreen({ name: 'capture', side: screen.side })}
            onUse={() => void send(screen.side, screen.image)}
          />
        );
      case 'noAttempts':
        return (
          <NoAttemptsScreen text={text} api={api} side={screen.side} problems={screen.problems} />
        );
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
          <EndedScreen text={text} state={screen.state} redirectUrl={screen.redirectUrl} />
        );
    }
  }
}
