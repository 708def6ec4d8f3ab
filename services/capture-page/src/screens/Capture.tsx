// One side's capture: the camera (components/Camera.tsx) and, always visible, a file upload
// (<input type=file capture>) as the fallback; the photo is prepared for upload (photo.ts) and
// handed on. Advice for the last photo's problems is announced above.
import { useState } from 'preact/hooks';
import { Camera } from '../components/Camera.tsx';
import { Busy, Button, Screen } from '../components/Screen.tsx';
import { Examples } from '../components/Examples.tsx';
import { Upload, type UploadProgress } from '../components/Upload.tsx';
import { grabFrame, preparePhoto } from '../photo.ts';
import { advice, fill, type Strings } from '../strings/index.ts';
import type { CaptureProblem, CaptureSide } from '../strings/types.ts';

export type CaptureNotice =
  | { kind: 'problems'; problems: CaptureProblem[]; attemptsLeft: number }
  | { kind: 'tooLarge' }
  | { kind: 'wrongType' }
  | { kind: 'notAllowed' }
  | { kind: 'camera' }
  /** the person stopped the upload, or the connection dropped: no attempt used */
  | { kind: 'stopped' }
  | { kind: 'sendFailed' };

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
  upload?: UploadProgress | undefined;
  onCancel: () => void;
  /** back to the document choice (a document side, the type not fixed by the caller) */
  onOtherDocument?: (() => void) | undefined;
  onCaptured: (image: Blob) => void;
  onNotice: (notice: CaptureNotice) => void;
}

function Notice({
  text,
  side,
  notice,
}: {
  text: Strings;
  side: CaptureSide;
  notice: CaptureNotice;
}) {
  switch (notice.kind) {
    case 'problems':
      return (
        <>
          <p class="alert-title">{text.problemTitle}</p>
          <ul>
            {notice.problems.map((code) => (
              <li key={code} data-problem={code}>
                {advice(text, side, code)}
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
    case 'stopped':
      return <p>{text.sendingStopped}</p>;
    case 'sendFailed':
      return <p>{text.sendingFailed}</p>;
  }
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
      alert={props.notice ? <Notice text={text} side={side} notice={props.notice} /> : undefined}
    >
      <p>{text.sideHint[side]}</p>
      {camera ? null : (
        <Examples
          text={text}
          side={side}
          problems={props.notice?.kind === 'problems' ? props.notice.problems : undefined}
        />
      )}
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
      {props.upload ? (
        <Upload text={text} progress={props.upload} onCancel={props.onCancel} />
      ) : busy ? (
        <Busy text={preparing ? text.preparing : text.uploading} />
      ) : null}
      {props.notice?.kind !== 'problems' && props.attemptsLeft === 1 && props.steps > 0 ? (
        <p class="hint">{text.attemptsLeftOne}</p>
      ) : null}
      <div class="actions">
        {camera ? null : (
          <Button primary disabled={busy} onClick={() => setCamera(true)}>
            {text.useCamera}
          </Button>
        )}
        {/* the input inside its label: the label looks like a button, the input takes the focus */}
        <label class={busy ? 'button file disabled' : 'button file'}>
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
          {selfie ? text.uploadPhotoSelfie : text.uploadPhoto}
        </label>
      </div>
      {props.onOtherDocument && !busy ? (
        <button type="button" class="link-button" onClick={props.onOtherDocument}>
          {text.otherDocument}
        </button>
      ) : null}
    </Screen>
  );
}
