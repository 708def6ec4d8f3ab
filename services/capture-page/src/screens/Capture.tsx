// One side's capture: the camera (getUserMedia, a guide frame over the preview, a capture button;
// for the selfie in 'auto' mode a countdown once the preview has run steadily for a second) and,
// always visible, a file upload (<input type=file capture>) as the fallback. Advice for the last
// photo's problems is announced above.
import { useEffect, useRef, useState } from 'preact/hooks';
import { Busy, Button, Screen } from '../components/Screen.tsx';
import { grabFrame, preparePhoto } from '../photo.ts';
import { fill, type Strings } from '../strings/index.ts';
import type { CaptureProblem, CaptureSide } from '../strings/types.ts';

export type CaptureNotice =
  | { kind: 'problems'; problems: CaptureProblem[]; attemptsLeft: number }
  | { kind: 'tooLarge' }
  | { kind: 'wrongType' }
  | { kind: 'notAllowed' }
  | { kind: 'camera' };

/** Seconds the selfie countdown runs, after STEADY_MS of a playing preview. */
const COUNTDOWN_S = 3;
const STEADY_MS = 1000;

interface CaptureProps {
  text: Strings;
  side: CaptureSide;
  step: number;
  steps: number;
  attemptsLeft: number;
  maxImageBytes: number;
  autoCapture: boolean;
  notice?: CaptureNotice | undefined;
  busy: boolean;
  onCaptured: (image: Blob) => void;
  onNotice: (notice: CaptureNotice) => void;
}

function Notice({ text, notice }: { text: Strings; notice: CaptureNotice }) {
  switch (notice.kind) {
    case 'problems':
      return (
        <>
          <p class="alert-title">{text.problemTitle}</p>
          <ul>
            {notice.problems.map((code) => (
              <li key={code} data-problem={code}>
                {text.problems[code] ?? text.problemTitle}
              </li>
            ))}
          </ul>
          <p>
            {notice.attemptsLeft === 1
              ? text.attemptsLeftOne
              : fill(text.attemptsLeft, { count: notice.attemptsLeft })}
          </p>
        </>
      );
    case 'tooLarge':
      return <p>{text.fileTooLarge}</p>;
    case 'wrongType':
      return <p>{text.fileWrongType}</p>;
    case 'notAllowed':
      return <p>{text.notAllowedNow}</p>;
    case 'camera':
      return <p>{text.cameraUnavailable}</p>;
  }
}

function Camera(props: {
  text: Strings;
  selfie: boolean;
  autoCapture: boolean;
  busy: boolean;
  onFrame: (video: HTMLVideoElement) => void;
  onClose: () => void;
  onUnavailable: () => void;
}) {
  const { text } = props;
  const video = useRef<HTMLVideoElement>(null);
  const [playing, setPlaying] = useState(false);
  const [countdown, setCountdown] = useState<number | undefined>();

  useEffect(() => {
    let stream: MediaStream | undefined;
    let cancelled = false;
    const constraints: MediaStreamConstraints = {
      audio: false,
      video: {
        facingMode: props.selfie ? 'user' : 'environment',
        width: { ideal: 1920 },
        height: { ideal: 1080 },
      },
    };
    navigator.mediaDevices
      ?.getUserMedia(constraints)
      .then((s) => {
        stream = s;
        if (cancelled) return s.getTracks().forEach((t) => t.stop());
        if (video.current) video.current.srcObject = s;
      })
      .catch(() => !cancelled && props.onUnavailable());
    if (!navigator.mediaDevices) props.onUnavailable();
    return () => {
      cancelled = true;
      stream?.getTracks().forEach((t) => t.stop());
    };
  }, []);

  // automatic selfie: a countdown once the preview has played steadily for a moment
  useEffect(() => {
    if (!props.autoCapture || !playing || props.busy) return;
    let left = COUNTDOWN_S;
    let timer = setTimeout(function tick() {
      setCountdown(left);
      if (left === 0) {
        if (video.current) props.onFrame(video.current);
        return;
      }
      left -= 1;
      timer = setTimeout(tick, 1000);
    }, STEADY_MS);
    return () => clearTimeout(timer);
  }, [playing, props.autoCapture, props.busy]);

  return (
    <div class="camera">
      <div class={props.selfie ? 'viewfinder selfie' : 'viewfinder document'}>
        <video
          ref={video}
          autoplay
          muted
          playsInline
          aria-label={text.cameraVideoLabel}
          onPlaying={() => setPlaying(true)}
        />
        <div class="guide" aria-hidden="true" />
        {countdown !== undefined && countdown > 0 ? (
          <div class="countdown" aria-hidden="true">
            {countdown}
          </div>
        ) : null}
      </div>
      {props.autoCapture ? (
        <p role="status" aria-live="polite">
          {countdown !== undefined && countdown > 0
            ? fill(text.autoCaptureCountdown, { seconds: countdown })
            : text.autoCaptureHint}
        </p>
      ) : null}
      <div class="actions">
        <Button
          primary
          disabled={!playing || props.busy}
          onClick={() => video.current && props.onFrame(video.current)}
        >
          {text.takePhoto}
        </Button>
        <Button onClick={props.onClose}>{text.stopCamera}</Button>
      </div>
    </div>
  );
}

export function CaptureScreen(props: CaptureProps) {
  const { text, side } = props;
  const [camera, setCamera] = useState(false);
  const [preparing, setPreparing] = useState(false);
  const selfie = side === 'selfie';
  const inputId = `upload-${side}`;

  async function chosen(file: File | undefined) {
    if (!file) return;
    setPreparing(true);
    const prepared = await preparePhoto(file, props.maxImageBytes);
    setPreparing(false);
    if (prepared.ok) props.onCaptured(prepared.image);
    else props.onNotice({ kind: prepared.reason === 'tooLarge' ? 'tooLarge' : 'wrongType' });
  }

  async function frame(video: HTMLVideoElement) {
    setPreparing(true);
    const image = await grabFrame(video, props.maxImageBytes);
    setPreparing(false);
    if (image) {
      setCamera(false);
      props.onCaptured(image);
    } else props.onNotice({ kind: 'tooLarge' });
  }

  const busy = props.busy || preparing;
  return (
    <Screen
      name={`capture-${side}`}
      eyebrow={fill(text.stepOf, { current: props.step, total: props.steps })}
      title={text.sideTitle[side]}
      alert={props.notice ? <Notice text={text} notice={props.notice} /> : undefined}
    >
      <p>{text.sideHint[side]}</p>
      {camera ? (
        <Camera
          text={text}
          selfie={selfie}
          autoCapture={props.autoCapture}
          busy={busy}
          onFrame={(video) => void frame(video)}
          onClose={() => setCamera(false)}
          onUnavailable={() => {
            setCamera(false);
            props.onNotice({ kind: 'camera' });
          }}
        />
      ) : (
        <div class={selfie ? 'placeholder selfie' : 'placeholder document'} aria-hidden="true">
          <div class="guide" />
        </div>
      )}
      {busy ? <Busy text={preparing ? text.preparing : text.uploading} /> : null}
      {props.notice?.kind !== 'problems' && props.attemptsLeft === 1 && props.steps > 0 ? (
        <p class="hint">{text.attemptsLeftOne}</p>
      ) : null}
      <div class="actions">
        {camera ? null : (
          <Button primary disabled={busy} onClick={() => setCamera(true)}>
            {text.useCamera}
          </Button>
        )}
        <label class={busy ? 'button file disabled' : 'button file'} for={inputId}>
          {selfie ? text.uploadPhotoSelfie : text.uploadPhoto}
        </label>
        <input
          id={inputId}
          class="visually-hidden"
          type="file"
          accept="image/*"
          capture={selfie ? 'user' : 'environment'}
          disabled={busy}
          onChange={(e) => {
            const input = e.currentTarget;
            void chosen(input.files?.[0]);
            input.value = '';
          }}
        />
      </div>
    </Screen>
  );
}
