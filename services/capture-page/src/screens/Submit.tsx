// Sending the captures (POST /capture-api/submit), and the explanation shown when a photo has no
// attempts left.
import { Busy, Button, Screen } from '../components/Screen.tsx';
import type { Strings } from '../strings/index.ts';
import type { CaptureSide } from '../strings/types.ts';

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

export function NoAttemptsScreen(props: { text: Strings; onContinue: () => void }) {
  const { text } = props;
  return (
    <Screen name="no-attempts" title={text.noAttemptsTitle}>
      <p>{text.noAttemptsBody}</p>
      <Button primary onClick={props.onContinue}>
        {text.continue}
      </Button>
    </Screen>
  );
}
