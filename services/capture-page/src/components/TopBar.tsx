// The bar above every screen: whose page it is (the config's branding: logo and name), help (the
// business's support page, or the page's own tips), and the language switch. The business's colour
// becomes the page's primary colour when white text on it stays readable (WCAG AA, 4.5:1).
import { useEffect } from 'preact/hooks';
import type { Strings } from '../strings/index.ts';
import type { CaptureSession } from '../strings/types.ts';
import { Languages } from './Languages.tsx';

type Branding = NonNullable<CaptureSession['branding']>;

/** WCAG relative luminance of an #rrggbb colour. */
function luminance(hex: string): number {
  const channel = (i: number) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

/** Whether white text on `hex` reaches 4.5:1. */
export const readableUnderWhite = (hex: string): boolean => 1.05 / (luminance(hex) + 0.05) >= 4.5;

/** The business's colour as the page's primary colour (set through the CSSOM: the CSP allows it). */
function useBrandColour(colour: string | undefined) {
  useEffect(() => {
    const root = document.documentElement.style;
    if (!colour || !readableUnderWhite(colour)) return;
    root.setProperty('--primary', colour);
    root.setProperty('--primary-dark', colour);
    return () => {
      root.removeProperty('--primary');
      root.removeProperty('--primary-dark');
    };
  }, [colour]);
}

export function TopBar(props: {
  text: Strings;
  branding: Branding | null | undefined;
  locale: string;
  onLanguage: (code: string) => void;
}) {
  const { text, branding } = props;
  useBrandColour(branding?.primaryColor);
  return (
    <header class="top-bar">
      {branding ? (
        <p class="brand">
          {branding.logoUrl ? <img class="brand-logo" src={branding.logoUrl} alt="" /> : null}
          <span class="brand-name">{branding.name}</span>
        </p>
      ) : null}
      <div class="top-links">
        {branding?.supportUrl ? (
          <a
            class="link-button"
            href={branding.supportUrl}
            target="_blank"
            rel="noopener noreferrer"
          >
            {text.help}
          </a>
        ) : (
          <details class="help">
            <summary class="link-button">{text.help}</summary>
            <div class="help-body">
              {text.helpTips.map((tip) => (
                <p key={tip}>{tip}</p>
              ))}
            </div>
          </details>
        )}
        <Languages text={text} current={props.locale} onChoose={props.onLanguage} />
      </div>
    </header>
  );
}
