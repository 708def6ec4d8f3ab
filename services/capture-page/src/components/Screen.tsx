// The frame of every screen: a heading that takes the focus when the screen appears (so a screen
// reader announces the new step, "Step 2 of 3" included), the body, and an aria-live region for
// errors.
import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

interface ScreenProps {
  title: string;
  /** a short line above the heading, e.g. "Step 2 of 3" */
  eyebrow?: string | undefined;
  /** a picture above the heading (decorative) */
  icon?: ComponentChildren;
  /** the screen's name for the tests and the stylesheet */
  name: string;
  /** an error or advice announced to assistive technology */
  alert?: ComponentChildren;
  children?: ComponentChildren;
}

export function Screen({ title, eyebrow, name, icon, alert, children }: ScreenProps) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.focus();
    document.title = title;
  }, [title, name]);
  return (
    <main class={`screen screen-${name}`} data-screen={name}>
      {icon}
      {/* the step is read with the heading when the screen appears, so it is shown apart, hidden */}
      {eyebrow ? (
        <p class="eyebrow" aria-hidden="true">
          {eyebrow}
        </p>
      ) : null}
      <h1 tabIndex={-1} ref={heading}>
        {eyebrow ? <span class="visually-hidden">{`${eyebrow}: `}</span> : null}
        {title}
      </h1>
      <div class="alert-region" role="alert" aria-live="assertive">
        {alert ? <div class="alert">{alert}</div> : null}
      </div>
      {children}
    </main>
  );
}

/** A full-width button; `primary` for the screen's main action. */
export function Button(props: {
  onClick: () => void;
  children: ComponentChildren;
  primary?: boolean;
  disabled?: boolean;
}) {
  return (
    <button
      type="button"
      class={props.primary ? 'button primary' : 'button'}
      onClick={props.onClick}
      disabled={props.disabled ?? false}
    >
      {props.children}
    </button>
  );
}

/** A spinner with its text, announced politely. */
export function Busy({ text }: { text: string }) {
  return (
    <p class="busy" role="status" aria-live="polite">
      <span class="spinner" aria-hidden="true" />
      {text}
    </p>
  );
}
