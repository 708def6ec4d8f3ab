// The language switch in the bar above every screen: the other languages, each named in itself
// (and marked with its `lang`), the current one pressed. The choice is kept for this tab.
import { LANGUAGES, type Strings } from '../strings/index.ts';

const KEY = 'idv-capture-language';

export function storedLanguage(): string | null {
  try {
    return sessionStorage.getItem(KEY);
  } catch {
    return null;
  }
}

export function storeLanguage(code: string): void {
  try {
    sessionStorage.setItem(KEY, code);
  } catch {
    // a privacy mode: the choice lasts until the page reloads
  }
}

export function Languages(props: {
  text: Strings;
  current: string;
  onChoose: (code: string) => void;
}) {
  return (
    <nav class="languages" aria-label={props.text.languageLabel}>
      {LANGUAGES.map((language) => (
        <button
          key={language.code}
          type="button"
          class="link-button"
          lang={language.code}
          aria-pressed={language.code === props.current}
          onClick={() => props.onChoose(language.code)}
        >
          {language.name}
        </button>
      ))}
    </nav>
  );
}
