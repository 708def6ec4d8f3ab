// A good photo beside what to avoid, drawn as inline SVG (no asset to fetch, nothing the CSP
// refuses: shapes, fills and an SVG blur filter, no style attribute). Each side shows three: the
// good one, then the faults its last refusal named, else the commonest ones for that side. Too
// dark is a dark room with a moon, never a darker face: it is about light, not about skin.
import { useId } from 'preact/hooks';
import type { Strings } from '../strings/index.ts';
import type { CaptureProblem, CaptureSide, Example } from '../strings/types.ts';

/** The picture of each fault a problem code names, for a document and for a face. */
const DOCUMENT_FAULTS: Partial<Record<CaptureProblem, Example>> = {
  blurred: 'blurred',
  too_bright: 'glare',
  barcode_unreadable: 'glare',
  mrz_unreadable: 'cutOff',
  too_small: 'tooFar',
  too_dark: 'dark',
  no_face: 'cutOff',
};
const FACE_FAULTS: Partial<Record<CaptureProblem, Example>> = {
  too_dark: 'dark',
  blurred: 'blurred',
  too_bright: 'glare',
  no_face: 'tooFar',
  too_small: 'tooFar',
  face_too_small: 'tooFar',
  face_cut_off: 'cutOff',
  multiple_faces: 'twoFaces',
};

/** The three pictures for `side`: good, then the faults of `problems`, then the usual ones. */
export function examplesFor(
  side: CaptureSide,
  problems: readonly CaptureProblem[] = [],
): Example[] {
  const face = side === 'selfie';
  const named = problems.map((p) => (face ? FACE_FAULTS : DOCUMENT_FAULTS)[p]);
  const usual: Example[] = face ? ['blurred', 'tooFar'] : ['cutOff', 'glare'];
  const faults = [
    ...new Set([...named, ...usual].filter((e): e is Example => !!e && e !== 'good')),
  ];
  return ['good', ...faults.slice(0, 2)];
}

/** A dark room: the scene almost black, a moon in its corner (so it reads as light, not colour). */
const Dark = () => (
  <>
    <rect width="120" height="80" fill="#05070a" fill-opacity="0.9" />
    <path d="M106 6 A8 8 0 1 0 112 19 A6.5 6.5 0 1 1 106 6 Z" fill="#f3e6a1" />
  </>
);

function DocumentPicture({ example, blur }: { example: Example; blur: string }) {
  // the card: where it sits and how big, by fault
  const card =
    example === 'cutOff'
      ? { x: 40, y: 26, w: 96, h: 60 }
      : example === 'tooFar'
        ? { x: 46, y: 31, w: 28, h: 18 }
        : { x: 14, y: 10, w: 92, h: 60 };
  const unit = card.w / 92;
  return (
    <>
      <rect width="120" height="80" fill="#2b2f36" />
      <g filter={example === 'blurred' ? `url(#${blur})` : undefined}>
        <rect x={card.x} y={card.y} width={card.w} height={card.h} rx={4 * unit} fill="#e9edf3" />
        <rect
          x={card.x + 6 * unit}
          y={card.y + 10 * unit}
          width={22 * unit}
          height={28 * unit}
          fill="#9fb4cc"
        />
        {[12, 20, 28, 36, 46].map((dy) => (
          <rect
            key={dy}
            x={card.x + 34 * unit}
            y={card.y + dy * unit}
            width={50 * unit}
            height={3 * unit}
            fill="#5b6675"
          />
        ))}
      </g>
      {example === 'glare' ? (
        <ellipse cx="70" cy="34" rx="26" ry="14" fill="#fff" fill-opacity="0.85" />
      ) : null}
      {example === 'dark' ? <Dark /> : null}
    </>
  );
}

/** A head and shoulders centred on (cx, 40), `scale` times the good photo's size. */
function Person({ cx, scale }: { cx: number; scale: number }) {
  const at = (v: number, centre: number) => centre + (v - centre) * scale;
  const x = (v: number) => cx + (v - 60) * scale;
  return (
    <>
      <ellipse cx={cx} cy={at(90, 40)} rx={34 * scale} ry={20 * scale} fill="#4a5d73" />
      <ellipse cx={cx} cy={at(36, 40)} rx={17 * scale} ry={22 * scale} fill="#d9a988" />
      <circle cx={x(53)} cy={at(32, 40)} r={2 * scale} fill="#2b2f36" />
      <circle cx={x(67)} cy={at(32, 40)} r={2 * scale} fill="#2b2f36" />
      <rect x={x(54)} y={at(45, 40)} width={12 * scale} height={2 * scale} fill="#8a4b3c" />
    </>
  );
}

function FacePicture({ example, blur }: { example: Example; blur: string }) {
  return (
    <>
      <rect width="120" height="80" fill="#c9d6e3" />
      <g filter={example === 'blurred' ? `url(#${blur})` : undefined}>
        {example === 'twoFaces' ? <Person cx={95} scale={0.7} /> : null}
        <Person
          cx={example === 'cutOff' ? 8 : example === 'twoFaces' ? 45 : 60}
          scale={example === 'tooFar' ? 0.45 : 1}
        />
      </g>
      {example === 'glare' ? (
        <ellipse cx="48" cy="30" rx="16" ry="12" fill="#fff" fill-opacity="0.85" />
      ) : null}
      {example === 'dark' ? <Dark /> : null}
    </>
  );
}

export function Examples(props: {
  text: Strings;
  side: CaptureSide;
  problems?: readonly CaptureProblem[] | undefined;
}) {
  const { text } = props;
  const blur = `blur-${useId().replace(/[^A-Za-z0-9_-]/g, '')}`;
  const face = props.side === 'selfie';
  return (
    <figure class="examples">
      <figcaption class="visually-hidden">{text.examplesTitle}</figcaption>
      <ul>
        {examplesFor(props.side, props.problems).map((example) => (
          <li key={example} class={example === 'good' ? 'example good' : 'example bad'}>
            <svg
              viewBox="0 0 120 80"
              role="img"
              aria-label={text.examples[example]}
              focusable="false"
            >
              <defs>
                <filter id={`${blur}-${example}`}>
                  <feGaussianBlur stdDeviation="2.2" />
                </filter>
              </defs>
              {face ? (
                <FacePicture example={example} blur={`${blur}-${example}`} />
              ) : (
                <DocumentPicture example={example} blur={`${blur}-${example}`} />
              )}
            </svg>
            <span class="example-caption">
              <span aria-hidden="true">{example === 'good' ? '✓ ' : '✗ '}</span>
              {text.examples[example]}
            </span>
          </li>
        ))}
      </ul>
    </figure>
  );
}
