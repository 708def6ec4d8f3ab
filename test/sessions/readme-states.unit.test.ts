// The README's table of session states is the one generated from SESSION_TRANSITIONS, and names
// every state of the contract.
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { SESSION_STATES } from '@idv/contracts';
import { END, sessionStatesTable, START } from '../../infra/dev/sessionStatesTable.ts';
import { tableRows } from '@idv/testing/markdownTable';

describe('README: session states', () => {
  it('prints SESSION_TRANSITIONS (make generate)', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const section = readme.slice(readme.indexOf(START), readme.indexOf(END));
    expect(tableRows(section)).to.deep.equal(tableRows(sessionStatesTable()));
    for (const state of SESSION_STATES) expect(section, state).to.contain(`\`${state}\``);
  });
});
