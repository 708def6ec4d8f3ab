// Sending the captures (POST /capture-api/submit), and the end of the journey when a photo has no
// attempts left: the session is submitted at once (it is sure to fail; the other sides are not
// asked for), the reason of the last refusal stays on the screen, and once the session ended the
// way back to the service is shown.
import { useState } from 'preact/hooks';
import type { CaptureApi } from '../api.ts';
import { Busy, Button, Screen } from '../components/Screen.tsx';
import { isFinalSessionState } from '@idv/contracts/sessionStates';
import { advice, type Strings } from '../strings/index.ts';
import type { CaptureProblem, CaptureSide } from '../strings/types.ts';
import { safeRedirect, usePollStatus } from './Status.tsx';

export function SubmitScreen(props: {
  text: Strings;
  missing: CaptureSide[];
  busy: boolean;
  onSubmit: () => void;
}) {
  const { text } = props;
  return (
    <Screen name="submit" title={text.submitTitle}>
      <p>{props.missing.length === 0 ? text.submitBody : text.submitIncompleteBody}</p>
      {props.busy ? <Busy text={text.working} /> : null}
      <Button primary disabled={props.busy} onClick={props.onSubmit}>
        {props.missing.length === 0 ? text.submit : text.sendAnyway}
      </Button>
    </Screen>
  );
}

export function NoAttemptsScreen(props: {
  text: Strings;
  api: CaptureApi;
  side: CaptureSide;
  problems: CaptureProblem[];
}) {
  const { text } = props;
  const [redirect, setRedirect] = useState<string | undefined>();
  usePollStatus(props.api, (status) => {
    if (!isFinalSessionState(status.state)) return false;
    setRedirect(safeRedirect(status.redirectUrl));
    return true;
  });
  return (
    <Screen
      name="no-attempts"
      title={text.noAttemptsTitle}
      icon={
        <div class="badge badge-failed" aria-hidden="true">
          !
        </div>
      }
    >
      {props.problems.length > 0 ? (
        <>
          <p>{text.noAttemptsReason}</p>
          <ul class="reasons">
            {props.problems.map((code) => (
              <li key={code} data-problem={code}>
                {advice(text, props.side, code)}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      <p>{text.noAttemptsBody}</p>
      {redirect ? (
        <a class="button primary" href={redirect}>
          {text.redirectLink}
        </a>
      ) : null}
    </Screen>
  );
}
