// A photo on its way: how much of it has gone, with a way to stop it, then the server's check. The
// percentage is announced politely every quarter, not at every progress event.
import { Busy } from './Screen.tsx';
import { fill, type Strings } from '../strings/index.ts';

export interface UploadProgress {
  sent: number;
  total: number;
}

export function Upload(props: { text: Strings; progress: UploadProgress; onCancel: () => void }) {
  const { text, progress } = props;
  if (progress.total > 0 && progress.sent >= progress.total) return <Busy text={text.uploading} />;
  const percent = progress.total > 0 ? Math.floor((progress.sent / progress.total) * 100) : 0;
  return (
    <div class="upload">
      <label class="upload-label" for="upload-progress">
        {fill(text.sending, { percent })}
      </label>
      <progress id="upload-progress" max={100} value={percent} />
      <p class="visually-hidden" role="status" aria-live="polite">
        {fill(text.sending, { percent: Math.floor(percent / 25) * 25 })}
      </p>
      <button type="button" class="button" onClick={props.onCancel}>
        {text.stopSending}
      </button>
    </div>
  );
}
