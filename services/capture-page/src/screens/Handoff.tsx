// Desktop-to-phone handoff: on a wide screen without a touch pointer the page offers a QR code of
// its own link, and the link itself to copy (to send it to the phone another way, and as the QR
// code's text alternative); the desktop then polls the status and shows the end, or the person
// continues here.
import { useState } from 'preact/hooks';
import type { CaptureApi, CaptureStatus } from '../api.ts';
import { Button, Screen } from '../components/Screen.tsx';
import { QrCode } from '../qr.tsx';
import type { Strings } from '../strings/index.ts';
import { usePollStatus } from './Status.tsx';

/** Where this tab remembers that the person chose to continue here (a reload keeps to it). */
const HERE_KEY = 'idv-capture-here';

function storedHere(): string | null {
  try {
    return sessionStorage.getItem(HERE_KEY);
  } catch {
    return null; // storage refused (a privacy mode): the handoff is offered again
  }
}

/** Remembers, for this tab and this link, that the person continues on this device. */
export function stayHere(): void {
  try {
    sessionStorage.setItem(HERE_KEY, location.pathname);
  } catch {
    // nothing to remember it in
  }
}

/**
 * A wide screen whose pointers are all fine (mouse, trackpad): likely a computer, unless the
 * person already chose to continue on it in this tab.
 */
export function wantsHandoff(): boolean {
  if (storedHere() === location.pathname) return false;
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
  const [copied, setCopied] = useState<boolean | undefined>();
  const copy = () =>
    navigator.clipboard.writeText(props.url).then(
      () => setCopied(true),
      () => setCopied(false),
    );
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
      <p class="handoff-link">
        {text.handoffLinkLabel} <span class="link-text">{props.url}</span>
      </p>
      {navigator.clipboard ? <Button onClick={() => void copy()}>{text.handoffCopy}</Button> : null}
      <p class="hint" role="status" aria-live="polite">
        {copied === true ? text.handoffCopied : copied === false ? text.handoffCopyFailed : ''}
      </p>
      <p class="hint" role="status">
        {text.handoffWaiting}
      </p>
      <Button onClick={props.onHere}>{text.handoffHere}</Button>
    </Screen>
  );
}
