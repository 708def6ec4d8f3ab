// The table of session states and transitions in docs/sessions.md, generated from
// SESSION_TRANSITIONS (the contract): infra/render.ts (`make generate`) rewrites it between its
// markers, and test/sessions/readme-states.unit.test.ts keeps the two equal.
import { SESSION_TRANSITIONS, wireStatusOf } from '@idv/contracts';
import { WELL_KNOWN } from '../../services/docverify-gateway/src/wellKnown/wellKnown.ts';

/** The guide that holds the table, from the repository's root. */
export const SESSION_STATES_FILE = 'docs/sessions.md';

export const START = '<!-- session-states:start -->';
export const END = '<!-- session-states:end -->';

const MINUTES = {
  expireSessionInMin: WELL_KNOWN.expireSessionInMin,
  abandonSessionInMin: WELL_KNOWN.abandonSessionInMin,
};

export function sessionStatesTable(): string {
  return [
    '| from | to | wire status | when | timer (well-known constant) |',
    '|---|---|---|---|---|',
    ...SESSION_TRANSITIONS.map(
      (t) =>
        `| ${t.from.map((s) => `\`${s}\``).join(', ')} | \`${t.to}\` | \`${wireStatusOf(t.to)}\` | ${t.on} | ${t.timer ? `\`${t.timer}\` (${MINUTES[t.timer]} min)` : ''} |`,
    ),
  ].join('\n');
}

export function withStatesTable(guide: string): string {
  const start = guide.indexOf(START);
  const end = guide.indexOf(END);
  if (start < 0 || end < start) throw new Error(`${SESSION_STATES_FILE} lacks ${START} ... ${END}`);
  return `${guide.slice(0, start + START.length)}\n\n${sessionStatesTable()}\n\n${guide.slice(end)}`;
}
