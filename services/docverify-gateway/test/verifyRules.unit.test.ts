// The rules of spec 2.2 that depend on the requested kinds, without servers: each broken rule
// names its field (the HTTP answer to them is in verify-rules.test.ts).
import { expect } from 'chai';
import type { VerificationKind, VerifyRequest } from '@idv/contracts';
import { checkVerifyRules } from '../src/verify/verifyRules.ts';

type Document = VerifyRequest['document'];

const request = (
  verifications: VerificationKind[],
  document: Partial<Document> = {},
): VerifyRequest => ({
  dvcID: 'kyc',
  verifications,
  document: { id: 'doc-1', type: 'dl', ...document },
});

const person = { firstName: 'Testy', lastName: 'McTestface', dob: '19900102' };

/** name, kinds, document members, the paths of the issues expected (in order) */
const cases: [string, VerificationKind[], Partial<Document>, string[]][] = [
  // kinds listed twice
  ['each kind once passes', ['face_liveness', 'document_liveness'], {}, []],
  [
    'a kind listed twice names the second',
    ['face_liveness', 'face_liveness'],
    {},
    ['/verifications/1'],
  ],
  [
    'a kind listed twice is judged once',
    ['dl_verify', 'dl_verify'],
    {},
    ['/verifications/1', '/document/documentType', '/document/country'],
  ],

  // dl_verify: documentType and country required
  [
    'dl_verify with documentType and country',
    ['dl_verify'],
    { documentType: 'DL', country: 'USA' },
    [],
  ],
  ['dl_verify without documentType', ['dl_verify'], { country: 'USA' }, ['/document/documentType']],
  ['dl_verify without country', ['dl_verify'], { documentType: 'DL' }, ['/document/country']],
  ['dl_verify without both', ['dl_verify'], {}, ['/document/documentType', '/document/country']],
  [
    'dl_verify with an empty documentType',
    ['dl_verify'],
    { documentType: '', country: 'USA' },
    ['/document/documentType'],
  ],

  // face_compare rule 1: image1/image1Url with image2/image2Url, or liveId/liveIdUrl with image2/image2Url
  ['face_compare with image1 and image2', ['face_compare'], { image1: 'QQ==', image2: 'QQ==' }, []],
  [
    'face_compare with both URLs',
    ['face_compare'],
    { image1Url: 'https://x.test/1', image2Url: 'https://x.test/2' },
    [],
  ],
  [
    'face_compare with image1 and image2Url',
    ['face_compare'],
    { image1: 'QQ==', image2Url: 'https://x.test/2' },
    [],
  ],
  ['face_compare with liveId and image2', ['face_compare'], { liveId: 'QQ==', image2: 'QQ==' }, []],
  [
    'face_compare with liveIdUrl and image2Url',
    ['face_compare'],
    { liveIdUrl: 'https://x.test/l', image2Url: 'https://x.test/2' },
    [],
  ],
  [
    'face_compare with liveId, image1 and image2 (rule 2: image1 is compared)',
    ['face_compare'],
    { liveId: 'QQ==', image1: 'QQ==', image2: 'QQ==' },
    [],
  ],
  ['face_compare with nothing', ['face_compare'], {}, ['/document/image2']],
  ['face_compare with image1 only', ['face_compare'], { image1: 'QQ==' }, ['/document/image2']],
  ['face_compare with image2 only', ['face_compare'], { image2: 'QQ==' }, ['/document/image2']],
  [
    'face_compare with liveId and image1 but no image2',
    ['face_compare'],
    { liveId: 'QQ==', image1: 'QQ==' },
    ['/document/image2'],
  ],
  [
    'face_compare with an empty image2',
    ['face_compare'],
    { image1: 'QQ==', image2: '' },
    ['/document/image2'],
  ],
  // face_compare purpose: authentication or doc_enrollment
  [
    'face_compare for authentication',
    ['face_compare'],
    { image1: 'QQ==', image2: 'QQ==', purpose: 'authentication' },
    [],
  ],
  [
    'face_compare for doc_enrollment',
    ['face_compare'],
    { image1: 'QQ==', image2: 'QQ==', purpose: 'doc_enrollment' },
    [],
  ],
  [
    'face_compare for registration',
    ['face_compare'],
    { image1: 'QQ==', image2: 'QQ==', purpose: 'registration' },
    ['/document/purpose'],
  ],
  ['face_liveness may be for registration', ['face_liveness'], { purpose: 'registration' }, []],

  // ssn_verify: lastName when firstName is given; dob as yyyyMMdd, yyyy/MM/dd or yyyy-MM-dd
  ['ssn_verify with no names', ['ssn_verify'], { ssn: '000-00-0000' }, []],
  ['ssn_verify with a lastName alone', ['ssn_verify'], { lastName: 'McTestface' }, []],
  [
    'ssn_verify with both names',
    ['ssn_verify'],
    { firstName: 'Testy', lastName: 'McTestface' },
    [],
  ],
  [
    'ssn_verify with a firstName alone',
    ['ssn_verify'],
    { firstName: 'Testy' },
    ['/document/lastName'],
  ],
  [
    'ssn_verify with an empty lastName',
    ['ssn_verify'],
    { firstName: 'Testy', lastName: '' },
    ['/document/lastName'],
  ],
  ['ssn_verify dob yyyyMMdd', ['ssn_verify'], { dob: '19900102' }, []],
  ['ssn_verify dob yyyy/MM/dd', ['ssn_verify'], { dob: '1990/01/02' }, []],
  ['ssn_verify dob yyyy-MM-dd', ['ssn_verify'], { dob: '1990-01-02' }, []],
  ['ssn_verify dob MM/dd/yyyy', ['ssn_verify'], { dob: '01/02/1990' }, ['/document/dob']],
  [
    'ssn_verify dob with mixed separators',
    ['ssn_verify'],
    { dob: '1990/01-02' },
    ['/document/dob'],
  ],
  ['ssn_verify dob with a month 13', ['ssn_verify'], { dob: '1990-13-02' }, ['/document/dob']],
  ['ssn_verify dob on 30 February', ['ssn_verify'], { dob: '19900230' }, ['/document/dob']],
  ['ssn_verify dob in words', ['ssn_verify'], { dob: 'Jan 2 1990' }, ['/document/dob']],

  // person_verify: firstName, lastName and dob (YYYYMMDD) required
  ['person_verify with all three', ['person_verify'], person, []],
  [
    'person_verify with nothing',
    ['person_verify'],
    {},
    ['/document/firstName', '/document/lastName', '/document/dob'],
  ],
  [
    'person_verify without firstName',
    ['person_verify'],
    { ...person, firstName: '' },
    ['/document/firstName'],
  ],
  [
    'person_verify without lastName',
    ['person_verify'],
    { firstName: 'Testy', dob: '19900102' },
    ['/document/lastName'],
  ],
  [
    'person_verify dob yyyy-MM-dd',
    ['person_verify'],
    { ...person, dob: '1990-01-02' },
    ['/document/dob'],
  ],
  [
    'person_verify dob on 29 February of a leap year',
    ['person_verify'],
    { ...person, dob: '20000229' },
    [],
  ],
  [
    'person_verify dob on 29 February of 1900',
    ['person_verify'],
    { ...person, dob: '19000229' },
    ['/document/dob'],
  ],
  [
    'person_verify dob with seven digits',
    ['person_verify'],
    { ...person, dob: '1990012' },
    ['/document/dob'],
  ],

  // *_authenticate: document type dl, ppt or idcard, in any case
  ['dl_authenticate with type dl', ['dl_authenticate'], { type: 'dl' }, []],
  ['dl_authenticate with type DL', ['dl_authenticate'], { type: 'DL' }, []],
  ['dl_authenticate with type ppt', ['dl_authenticate'], { type: 'ppt' }, ['/document/type']],
  ['ppt_authenticate with type Ppt', ['ppt_authenticate'], { type: 'Ppt' }, []],
  ['ppt_authenticate with type dl', ['ppt_authenticate'], { type: 'dl' }, ['/document/type']],
  ['idcard_authenticate with type IDCARD', ['idcard_authenticate'], { type: 'IDCARD' }, []],
  [
    'idcard_authenticate with type id card',
    ['idcard_authenticate'],
    { type: 'id card' },
    ['/document/type'],
  ],
  [
    'two authenticate kinds cannot both have their type',
    ['dl_authenticate', 'ppt_authenticate'],
    { type: 'dl' },
    ['/document/type'],
  ],

  // kinds without rules of their own here, and several kinds at once
  ['document_liveness has no rule of its own', ['document_liveness'], {}, []],
  [
    'every kind broken at once names every field, kind by kind',
    ['person_verify', 'dl_verify', 'face_compare'],
    { type: 'dl' },
    [
      '/document/firstName',
      '/document/lastName',
      '/document/dob',
      '/document/documentType',
      '/document/country',
      '/document/image2',
    ],
  ],
];

describe('docverify: verify rules of spec 2.2', () => {
  for (const [name, kinds, document, paths] of cases) {
    it(name, () => {
      const issues = checkVerifyRules(request(kinds, document));
      expect(issues.map((issue) => issue.path)).to.deep.equal(paths);
    });
  }

  const messages: [string, VerificationKind[], Partial<Document>, string][] = [
    ['a kind listed twice', ['ssn_verify', 'ssn_verify'], {}, 'ssn_verify is listed twice'],
    ['a required member', ['dl_verify'], { documentType: 'DL' }, 'is required for dl_verify'],
    [
      'the authenticate type',
      ['idcard_authenticate'],
      { type: 'dl' },
      'must be idcard (any case) for idcard_authenticate',
    ],
    [
      'the ssn_verify dob',
      ['ssn_verify'],
      { dob: 'x' },
      'must be a date as yyyyMMdd, yyyy/MM/dd or yyyy-MM-dd',
    ],
    [
      'the person_verify dob',
      ['person_verify'],
      { ...person, dob: 'x' },
      'must be a date as YYYYMMDD',
    ],
    [
      'the face_compare purpose',
      ['face_compare'],
      { liveId: 'QQ==', image2: 'QQ==', purpose: 'registration' },
      'must be authentication or doc_enrollment for face_compare',
    ],
  ];
  for (const [name, kinds, document, message] of messages) {
    it(`says what is wrong with ${name}`, () => {
      expect(checkVerifyRules(request(kinds, document)).map((i) => i.message)).to.deep.equal([
        message,
      ]);
    });
  }
});
