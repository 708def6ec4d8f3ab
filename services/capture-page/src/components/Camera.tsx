// The camera: getUserMedia (back camera for documents, front for the selfie), a guide frame over
// the preview (a card outline or an oval) and a capture button. For the selfie, face guidance
// (../face/useFaceGuidance.ts) says what to change, through a polite live region; in 'auto' mode
// the photo is taken by itself once one face is centred, big enough and still.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { FaceAdvice } from '../face/guidance.ts';
import { useFaceGuidance, type FaceGuidance } from '../face/useFaceGuidance.ts';
import { useLatest } from '../latest.ts';
import type { Strings } from '../strings/index.ts';
import { Button } from './Screen.tsx';

/** What the selfie camera says under the preview; undefined: nothing. */
function guidanceText(text: Strings, guidance: FaceGuidance, auto: boolean): string | undefined {
  if (guidance.state === 'unavailable') return auto ? text.faceGuideUnavailable : undefined;
  const advice: FaceAdvice = guidance.state === 'running' ? guidance.advice : 'noFace';
  if (advice === 'steady') return auto ? text.faceSteadyAuto : text.faceSteady;
  return text.faceAdvice[advice];
}

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
  const take = () => video.current && props.onFrame(video.current);
  const guidance = useFaceGuidance(video, {
    enabled: props.selfie,
    running: props.selfie && playing && !props.busy,
    onReady: props.autoCapture ? take : undefined,
  });
  const said = props.selfie ? guidanceText(text, guidance, props.autoCapture) : undefined;
  const good = guidance.state === 'running' && guidance.advice === 'steady';

  // the camera opens once per side shown (selfie or document), whatever else re-renders
  const { selfie } = props;
  const unavailable = useLatest(props.onUnavailable);
  useEffect(() => {
    let stream: MediaStream | undefined;
    let cancelled = false;
    const constraints: MediaStreamConstraints = {
      audio: false,
      video: {
        facingMode: selfie ? 'user' : 'environment',
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
      .catch(() => !cancelled && unavailable.current());
    if (!navigator.mediaDevices) unavailable.current();
    return () => {
      cancelled = true;
      stream?.getTracks().forEach((t) => t.stop());
    };
  }, [selfie, unavailable]);

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
        <div class={good ? 'guide good' : 'guide'} aria-hidden="true" />
      </div>
      {/* always rendered: a live region announces changes of its text, not its arrival */}
      {props.selfie ? (
        <p class="face-advice" role="status" aria-live="polite">
          {said}
        </p>
      ) : null}
      <div class="actions">
        <Button primary disabled={!playing || props.busy} onClick={take}>
          {text.takePhoto}
        </Button>
        <Button onClick={props.onClose}>{text.stopCamera}</Button>
      </div>
    </div>
  );
}
