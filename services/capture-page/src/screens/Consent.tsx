// The biometric consent: the text of the version the server names, a checkbox and a button that
// records it (POST /capture-api/consent with that version), and a way to decline, which asks
// once more before it ends the session (POST /capture-api/decline).
import { useState } from 'preact/hooks';
import { Button, Screen } from '../components/Screen.tsx';
import { fill, type Strings } from '../strings/index.ts';

export function ConsentScreen(props: {
  text: Strings;
  version: string;
  busy: boolean;
  /** the business's privacy policy and name (its config's branding), when it gave them */
  privacyPolicyUrl?: string | undefined;
  business?: string | undefined;
  onAccept: () => void;
  onDecline: () => void;
}) {
  const { text } = props;
  const [agreed, setAgreed] = useState(false);
  const [declining, setDeclining] = useState(false);
  if (declining)
    return (
      <Screen name="decline" title={text.declineTitle}>
        <p>{text.declineBody}</p>
        <div class="actions">
          <Button primary disabled={props.busy} onClick={props.onDecline}>
            {text.declineYes}
          </Button>
          <Button disabled={props.busy} onClick={() => setDeclining(false)}>
            {text.declineNo}
          </Button>
        </div>
      </Screen>
    );
  const paragraphs = text.consentText[props.version];
  if (!paragraphs)
    return (
      <Screen name="consent" title={text.serverTitle}>
        <p>{text.serverBody}</p>
      </Screen>
    );
  return (
    <Screen name="consent" title={text.consentTitle}>
      <div class="consent-text" data-version={props.version}>
        {paragraphs.map((p) => (
          <p key={p}>{p}</p>
        ))}
        {props.privacyPolicyUrl ? (
          <p>
            <a href={props.privacyPolicyUrl} target="_blank" rel="noopener noreferrer">
              {props.business
                ? fill(text.privacyPolicyOf, { business: props.business })
                : text.privacyPolicy}
            </a>
          </p>
        ) : null}
      </div>
      <label class="check">
        <input
          type="checkbox"
          checked={agreed}
          onChange={(e) => setAgreed(e.currentTarget.checked)}
        />
        <span>{text.consentCheckbox}</span>
      </label>
      <div class="actions">
        <Button primary disabled={!agreed || props.busy} onClick={props.onAccept}>
          {text.consentAccept}
        </Button>
        <Button disabled={props.busy} onClick={() => setDeclining(true)}>
          {text.consentDecline}
        </Button>
      </div>
    </Screen>
  );
}
