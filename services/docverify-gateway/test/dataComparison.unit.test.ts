// Name and dob comparison rules, without servers: normalisation, eq, fuzzyMatch thresholds.
import { expect } from 'chai';
import { compareData, normaliseDate, normaliseName } from '../src/verify/dataComparison.ts';

type Attributes = Parameters<typeof compareData>[0];
type NameCheck = 'firstname check' | 'lastname check';

const fuzzy = (module: NameCheck, minMatchScore?: number, ignoreMiddleNames?: boolean) => ({
  module,
  criteria: {
    value: 'fuzzyMatch' as const,
    ...(minMatchScore === undefined ? {} : { minMatchScore }),
    ...(ignoreMiddleNames === undefined ? {} : { ignoreMiddleNames }),
  },
});
const eq = (module: NameCheck | 'dob check', ignoreMiddleNames?: boolean) => ({
  module,
  criteria: {
    value: 'eq' as const,
    ...(ignoreMiddleNames === undefined ? {} : { ignoreMiddleNames }),
  },
});

describe('docverify: data comparison', () => {
  describe('normaliseName', () => {
    const cases: [string, string, boolean, string][] = [
      ['lower case', 'TESTY McTestface', false, 'testy mctestface'],
      ['accents off', 'Tésty Mçtëstfàce', false, 'testy mctestface'],
      ['a tilde off', 'Ñoño', false, 'nono'],
      ['a stroke off', 'Łukasz Øster Đurić Ħesty', false, 'lukasz oster duric hesty'],
      [
        'letters without a base letter spelled out',
        'Straße Æsir Œuvre Þór',
        false,
        'strasse aesir oeuvre thor',
      ],
      ['a dotless i is an i', 'Yıldız', false, 'yildiz'],
      [
        'punctuation between names is a space',
        'Testy-Quincy McTestface',
        false,
        'testy quincy mctestface',
      ],
      ['a full stop is a space', 'T.Q. McTestface', false, 't q mctestface'],
      [
        'an apostrophe inside a name goes, not split it',
        "O'Testface D’Example",
        false,
        'otestface dexample',
      ],
      ['spaces around and between collapse', '  Testy   McTestface  ', false, 'testy mctestface'],
      ['suffix Jr. dropped', 'Testy McTestface Jr.', false, 'testy mctestface'],
      ['suffix SR dropped', 'Testy McTestface SR', false, 'testy mctestface'],
      ['suffix III dropped', 'Testy McTestface III', false, 'testy mctestface'],
      ['a suffix inside a word stays', 'Junior Srinivas', false, 'junior srinivas'],
      ['a name of suffixes only is empty', 'Jr.', false, ''],
      ['digits stay', 'Testy 2', false, 'testy 2'],
      ['ignoreMiddleNames keeps the first name', 'Testy Quincy Ulysses', true, 'testy'],
      ['ignoreMiddleNames after normalising', ' Tésty-Quincy ', true, 'testy'],
      ['all of it at once', "  José-María O'Testface Jr. ", false, 'jose maria otestface'],
    ];
    for (const [name, input, ignoreMiddleNames, expected] of cases) {
      it(name, () => expect(normaliseName(input, ignoreMiddleNames)).to.equal(expected));
    }
  });

  describe('normaliseDate', () => {
    const cases: [string, string, string | undefined][] = [
      ['YYYYMMDD', '19900102', '1990-01-02'],
      ['YYYY-MM-DD', '1990-01-02', '1990-01-02'],
      ['YYYY/MM/DD', '1990/01/02', '1990-01-02'],
      ['MM/DD/YYYY', '01/02/1990', '1990-01-02'],
      ['spaces around', ' 1990-01-02 ', '1990-01-02'],
      ['month and day without their zero', '1990-1-2', undefined],
      ['DD.MM.YYYY', '02.01.1990', undefined],
      ['in words', 'Jan 2 1990', undefined],
      ['a time after the date', '1990-01-02T00:00:00Z', undefined],
      ['empty', '', undefined],
    ];
    for (const [name, input, expected] of cases) {
      it(name, () => expect(normaliseDate(input)).to.equal(expected));
    }
  });

  describe('compareData', () => {
    /**
     * name, attributes, what the caller sent, what the document yielded, and [score, passed] for
     * each comparison; a score left undefined is fuzzball's business, only `passed` is checked
     */
    const cases: [
      string,
      Attributes,
      Record<string, unknown>,
      Record<string, string>,
      [number | undefined, boolean][],
    ][] = [
      // eq
      [
        'eq: the same name',
        [eq('lastname check')],
        { lastName: 'McTestface' },
        { lastName: 'McTestface' },
        [[100, true]],
      ],
      [
        'eq ignores case and accents',
        [eq('lastname check')],
        { lastName: 'MCTESTFACE' },
        { lastName: 'McTéstface' },
        [[100, true]],
      ],
      [
        'eq ignores a stroke as it ignores an accent',
        [eq('firstname check')],
        { firstName: 'Lukasz' },
        { firstName: 'ŁUKASZ' },
        [[100, true]],
      ],
      [
        'fuzzy at the default score does not count a stroke against a name',
        [fuzzy('firstname check')],
        { firstName: 'Łukasz' },
        { firstName: 'Lukasz' },
        [[100, true]],
      ],
      [
        'eq ignores an apostrophe (a passport MRZ drops it)',
        [eq('lastname check')],
        { lastName: "O'Testface" },
        { lastName: 'OTESTFACE' },
        [[100, true]],
      ],
      [
        'eq ignores a suffix',
        [eq('lastname check')],
        { lastName: 'McTestface Jr' },
        { lastName: 'McTestface' },
        [[100, true]],
      ],
      [
        'eq ignores a hyphen for a space',
        [eq('lastname check')],
        { lastName: 'Test-Face' },
        { lastName: 'Test Face' },
        [[100, true]],
      ],
      [
        'eq refuses a typo',
        [eq('lastname check')],
        { lastName: 'McTestfase' },
        { lastName: 'McTestface' },
        [[0, false]],
      ],
      [
        'eq refuses a middle name',
        [eq('firstname check')],
        { firstName: 'Testy Quincy' },
        { firstName: 'Testy' },
        [[0, false]],
      ],
      [
        'eq with ignoreMiddleNames takes the first names',
        [eq('firstname check', true)],
        { firstName: 'Testy Quincy' },
        { firstName: 'Testy' },
        [[100, true]],
      ],
      [
        'eq refuses two names that normalise to nothing',
        [eq('lastname check')],
        { lastName: 'Jr.' },
        { lastName: 'Sr' },
        [[0, false]],
      ],
      // fuzzyMatch and its threshold
      [
        'fuzzy accepts a typo above the score',
        [fuzzy('lastname check', 85)],
        { lastName: 'McTestfase' },
        { lastName: 'McTestface' },
        [[90, true]],
      ],
      [
        'fuzzy passes at exactly the score',
        [fuzzy('lastname check', 90)],
        { lastName: 'McTestfase' },
        { lastName: 'McTestface' },
        [[90, true]],
      ],
      [
        'fuzzy fails one point below it',
        [fuzzy('lastname check', 91)],
        { lastName: 'McTestfase' },
        { lastName: 'McTestface' },
        [[90, false]],
      ],
      [
        'fuzzy takes 85 when no score is given',
        [fuzzy('lastname check')],
        { lastName: 'McTestfxxe' },
        { lastName: 'McTestface' },
        [[80, false]],
      ],
      [
        'fuzzy at the lowest score, 70',
        [fuzzy('lastname check', 70)],
        { lastName: 'McTestfxxe' },
        { lastName: 'McTestface' },
        [[80, true]],
      ],
      [
        'fuzzy at 100 refuses a typo',
        [fuzzy('lastname check', 100)],
        { lastName: 'McTestfase' },
        { lastName: 'McTestface' },
        [[90, false]],
      ],
      [
        'fuzzy refuses another name',
        [fuzzy('lastname check', 85)],
        { lastName: 'Example' },
        { lastName: 'McTestface' },
        [[undefined, false]],
      ],
      [
        'fuzzy does not mind the order of names',
        [fuzzy('firstname check')],
        { firstName: 'Quincy Testy' },
        { firstName: 'Testy Quincy' },
        [[100, true]],
      ],
      [
        'fuzzy normalises before scoring',
        [fuzzy('lastname check', 100)],
        { lastName: 'MC-TÉSTFACE jr' },
        { lastName: 'Mc Testface' },
        [[100, true]],
      ],
      [
        'fuzzy counts a middle name against the score',
        [fuzzy('firstname check', 85)],
        { firstName: 'Testy' },
        { firstName: 'Testy Quincy' },
        [[59, false]],
      ],
      [
        'fuzzy with ignoreMiddleNames',
        [fuzzy('firstname check', 100, true)],
        { firstName: 'Testy' },
        { firstName: 'Testy Quincy' },
        [[100, true]],
      ],
      [
        'fuzzy refuses a list of names that merely contains the right one',
        [fuzzy('firstname check', 90)],
        { firstName: 'John Mary Ahmed Wei Olga' },
        { firstName: 'John' },
        [[undefined, false]],
      ],
      [
        'fuzzy refuses two names that normalise to nothing',
        [fuzzy('lastname check', 70)],
        { lastName: 'Jr.' },
        { lastName: 'Sr' },
        [[0, false]],
      ],
      // dob
      [
        'dob eq across formats',
        [eq('dob check')],
        { dob: '19900102' },
        { dob: '1990-01-02' },
        [[100, true]],
      ],
      [
        'dob eq from a US date',
        [eq('dob check')],
        { dob: '01/02/1990' },
        { dob: '1990/01/02' },
        [[100, true]],
      ],
      [
        'dob eq refuses another day',
        [eq('dob check')],
        { dob: '19900103' },
        { dob: '1990-01-02' },
        [[0, false]],
      ],
      [
        'dob eq refuses an unreadable date, even the same text',
        [eq('dob check')],
        { dob: 'Jan 2 1990' },
        { dob: 'Jan 2 1990' },
        [[0, false]],
      ],
      // which fields are compared
      [
        'a field the caller did not send fails',
        [eq('dob check')],
        {},
        { dob: '1990-01-02' },
        [[0, false]],
      ],
      [
        'an empty field counts as not sent',
        [eq('lastname check')],
        { lastName: '' },
        { lastName: 'McTestface' },
        [[0, false]],
      ],
      [
        'a field sent as a number counts as not sent',
        [eq('dob check')],
        { dob: 19900102 },
        { dob: '1990-01-02' },
        [[0, false]],
      ],
      [
        'a field the document lacks is not compared',
        [eq('dob check')],
        { dob: '19900102' },
        {},
        [],
      ],
      [
        'one comparison per attribute, in the order configured',
        [eq('dob check'), fuzzy('firstname check'), eq('lastname check')],
        { firstName: 'Testy', lastName: 'McTestfase', dob: '19900102' },
        { firstName: 'Testy', lastName: 'McTestface', dob: '1990-01-02' },
        [
          [100, true],
          [100, true],
          [0, false],
        ],
      ],
    ];
    for (const [name, attributes, submitted, extracted, expected] of cases) {
      it(name, () => {
        const compared = compareData(attributes, submitted, extracted);
        const seen = compared.map((c, i) => [
          expected[i]?.[0] === undefined ? undefined : c.score,
          c.passed,
        ]);
        expect(seen).to.deep.equal(expected);
      });
    }

    it('names each field and whether the caller sent it (an empty one is not sent)', () => {
      const compared = compareData(
        [eq('firstname check'), eq('lastname check'), eq('dob check')],
        { firstName: '', lastName: 'McTestface' },
        { firstName: 'Testy', lastName: 'McTestface', dob: '1990-01-02' },
      );
      expect(compared.map((c) => [c.field, c.submitted])).to.deep.equal([
        ['firstName', false],
        ['lastName', true],
        ['dob', false],
      ]);
    });
  });
});
