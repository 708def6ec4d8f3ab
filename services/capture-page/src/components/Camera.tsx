// The camera: getUserMedia (back camera for documents, front for the selfie), a guide frame over
// the preview (a card outline or an oval) and a capture button; for the selfie in 'auto' mode a
// countdown once the preview has played steadily for a second (a timer, no face tracking).
import { useEffect, useRef, useState } from 'preact/hooks';
import { fill, type Strings } from '../strings/index.ts';
import { Button } from './Screen.tsx';

/** Seconds the selfie countdown runs, after STEADY_MS of a playing preview. */
const COUNTDOWN_S = 3;
const STEADY_MS = 1000;

export function Camera(props: {
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
