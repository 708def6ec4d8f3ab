// Desktop-to-phone handoff: on a wide screen without a touch pointer the page offers a QR code of
// its own link; the desktop then polls the status and shows the end, or the person continues here.
import type { CaptureApi, CaptureStatus } from '../api.ts';
import { Button, Screen } from '../components/Screen.tsx';
import { QrCode } from '../qr.tsx';
import type { Strings } from '../strings/index.ts';
import { usePollStatus } from './Status.tsx';

/** A wide screen whose pointers are all fine (mouse, trackpad): likely a computer. */
export function wantsHandoff(): boolean {
  const wide = window.matchMedia('(min-width: 900px)').matches;
  const touch = window.matchMedia('(any-pointer: coarse)').matches || navigator.maxTouchPoints > 0;
  return wide && !touch;
}

export function HandoffScreen(props: {
  text: Strings;
  api: CaptureApi;
  url: string;
  onHere: () => void;
  onStatus: (status: CaptureStatus) => void;
}) {
  const { text } = props;
  usePollStatus(props.api, (status) => {
    props.onStatus(status);
    return !['created', 'opened', 'capturing'].includes(status.state);
  });
  return (
    <Screen name="handoff" title={text.handoffTitle}>
      <p>{text.handoffBody}</p>
      <div class="qr-box">
        <QrCode value={props.url} label={text.handoffQrLabel} />
      </div>
      <p class="hint" role="status">
        {text.handoffWaiting}
      </p>
      <Button onClick={props.onHere}>{text.handoffHere}</Button>
    </Screen>
  );
}
