// Name and dob comparison rules, without servers.
import { expect } from 'chai';
import { compareData, normaliseDate, normaliseName } from '../src/domain/dataComparison.ts';

const fuzzy = (
  module: 'firstname check' | 'lastname check',
  minMatchScore = 85,
  ignoreMiddleNames = false,
) => ({
  module,
  criteria: { value: 'fuzzyMatch' as const, minMatchScore, ignoreMiddleNames },
});
const eq = (module: 'firstname check' | 'lastname check' | 'dob check') => ({
  module,
  criteria: { value: 'eq' as const, minMatchScore: 85 },
});

describe('docverify: data comparison', () => {
  it('normalises case, accents, punctuation and suffixes', () => {
    expect(normaliseName("  José-María O'Testface Jr. ")).to.equal('jose maria o testface');
    expect(normaliseName('Testy Quincy', true)).to.equal('testy');
    expect(normaliseDate('19900102')).to.equal('1990-01-02');
    expect(normaliseDate('1990/01/02')).to.equal('1990-01-02');
    expect(normaliseDate('01/02/1990')).to.equal('1990-01-02');
    expect(normaliseDate('Jan 2 1990')).to.equal(undefined);
  });

  const cases: [
    string,
    Parameters<typeof compareData>[0],
    Record<string, string>,
    Record<string, string>,
    boolean[],
  ][] = [
    [
      'eq ignores case and accents',
      [eq('lastname check')],
      { lastName: 'MCTESTFACE' },
      { lastName: 'McTéstface' },
      [true],
    ],
    [
      'eq refuses a typo',
      [eq('lastname check')],
      { lastName: 'McTestfase' },
      { lastName: 'McTestface' },
      [false],
    ],
    [
      'fuzzy accepts a typo above the score',
      [fuzzy('lastname check', 85)],
      { lastName: 'McTestfase' },
      { lastName: 'McTestface' },
      [true],
    ],
    [
      'fuzzy refuses another name',
      [fuzzy('lastname check', 85)],
      { lastName: 'Example' },
      { lastName: 'McTestface' },
      [false],
    ],
    [
      'fuzzy with ignoreMiddleNames',
      [fuzzy('firstname check', 100, true)],
      { firstName: 'Testy' },
      { firstName: 'Testy Quincy' },
      [true],
    ],
    [
      'fuzzy refuses a list of names that merely contains the right one',
      [fuzzy('firstname check', 90)],
      { firstName: 'John Mary Ahmed Wei Olga' },
      { firstName: 'John' },
      [false],
    ],
    [
      'dob eq across formats',
      [eq('dob check')],
      { dob: '19900102' },
      { dob: '1990-01-02' },
      [true],
    ],
    [
      'dob eq refuses another day',
      [eq('dob check')],
      { dob: '19900103' },
      { dob: '1990-01-02' },
      [false],
    ],
    [
      'a field the caller did not send fails',
      [eq('dob check')],
      {},
      { dob: '1990-01-02' },
      [false],
    ],
    ['a field the document lacks is not compared', [eq('dob check')], { dob: '19900102' }, {}, []],
  ];
  for (const [name, attributes, submitted, extracted, expected] of cases) {
    it(name, () => {
      expect(compareData(attributes, submitted, extracted).map((c) => c.passed)).to.deep.equal(
        expected,
      );
    });
  }
});
