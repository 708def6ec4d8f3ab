// The document the person will photograph, when the session did not fix one.
import { Button, Screen } from '../components/Screen.tsx';
import type { Strings } from '../strings/index.ts';
import type { SessionDocumentType } from '../strings/types.ts';

export function DocumentTypeScreen(props: {
  text: Strings;
  types: SessionDocumentType[];
  busy: boolean;
  onChoose: (type: SessionDocumentType) => void;
}) {
  const { text } = props;
  return (
    <Screen name="document-type" title={text.documentTitle}>
      <p>{text.documentHint}</p>
      <div class="choices">
        {props.types.map((type) => (
          <Button key={type} disabled={props.busy} onClick={() => props.onChoose(type)}>
            {text.documentTypes[type]}
          </Button>
        ))}
      </div>
    </Screen>
  );
}
