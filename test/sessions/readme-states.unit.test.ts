// The table of session states in docs/sessions.md is the one generated from SESSION_TRANSITIONS,
// and names every state of the contract.
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { SESSION_STATES } from '@idv/contracts';
import {
  END,
  SESSION_STATES_FILE,
  sessionStatesTable,
  START,
} from '../../infra/dev/sessionStatesTable.ts';
import { tableRows } from '@idv/testing/markdownTable';

describe('docs/sessions.md: session states', () => {
  it('prints SESSION_TRANSITIONS (make generate)', () => {
    const guide = readFileSync(new URL(`../../${SESSION_STATES_FILE}`, import.meta.url), 'utf8');
    const section = guide.slice(guide.indexOf(START), guide.indexOf(END));
    expect(tableRows(section)).to.deep.equal(tableRows(sessionStatesTable()));
    for (const state of SESSION_STATES) expect(section, state).to.contain(`\`${state}\``);
  });
});
