// The photo just taken, before it is sent: retake it or use it.
import { useEffect, useMemo } from 'preact/hooks';
import { Busy, Button, Screen } from '../components/Screen.tsx';
import { Upload, type UploadProgress } from '../components/Upload.tsx';
import type { Strings } from '../strings/index.ts';

export function ReviewScreen(props: {
  text: Strings;
  image: Blob;
  busy: boolean;
  upload?: UploadProgress | undefined;
  onCancel: () => void;
  onRetake: () => void;
  onUse: () => void;
}) {
  const { text } = props;
  const url = useMemo(() => URL.createObjectURL(props.image), [props.image]);
  useEffect(() => () => URL.revokeObjectURL(url), [url]);
  return (
    <Screen name="review" title={text.reviewTitle}>
      <p>{text.reviewBody}</p>
      <img class="review-image" src={url} alt={text.reviewImageAlt} />
      {props.upload ? (
        <Upload text={text} progress={props.upload} onCancel={props.onCancel} />
      ) : props.busy ? (
        <Busy text={text.uploading} />
      ) : null}
      {/* while the photo is on its way, stopping it is the one thing to do */}
      {props.upload ? null : (
        <div class="actions">
          <Button primary disabled={props.busy} onClick={props.onUse}>
            {text.useThis}
          </Button>
          <Button disabled={props.busy} onClick={props.onRetake}>
            {text.retake}
          </Button>
        </div>
      )}
    </Screen>
  );
}
