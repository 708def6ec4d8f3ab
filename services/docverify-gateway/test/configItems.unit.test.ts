// Which verifiers a verification config's arrays may name: a kind array takes types performing the
// kind, the three arrays that are no kind take the types whose contract lists them.
import { expect } from 'chai';
import {
  CONNECTOR_BY_TYPE,
  CONNECTOR_TYPES,
  type ConfigArray,
  type ConnectorType,
} from '@idv/contracts';
import { checkItems } from '../src/verificationConfigs/configItems.ts';

const EXTRA_ARRAYS: ConfigArray[] = ['person_search', 'id_capture', 'face_rekognition'];

const issuesOf = (array: ConfigArray, type: ConnectorType) =>
  checkItems(
    { [array]: [{ verifier: 'v', skip: false, debug: false, returnRawData: false }] },
    new Map([['v', type]]),
  );

describe('verification config items: which types each array takes', () => {
  for (const type of CONNECTOR_TYPES) {
    const listed: readonly ConfigArray[] = CONNECTOR_BY_TYPE[type].configArrays ?? [];
    it(`${type} fills the arrays that are no kind its contract lists (${listed.join(', ') || 'none'}), no other`, () => {
      for (const array of EXTRA_ARRAYS)
        expect(issuesOf(array, type).length, array).to.equal(listed.includes(array) ? 0 : 1);
    });
  }

  it('keeps the types of spec 2.4: person search, ID capture and the cloud face service', () => {
    expect(issuesOf('person_search', 'people_search')).to.deep.equal([]);
    expect(issuesOf('person_search', 'identity_data')).to.deep.equal([]);
    expect(issuesOf('id_capture', 'basic_ocr')).to.deep.equal([]);
    expect(issuesOf('id_capture', 'document_auth_c')).to.deep.equal([]);
    expect(issuesOf('face_rekognition', 'face_cloud')).to.deep.equal([]);
    expect(issuesOf('face_rekognition', 'face_compare_b')).to.have.length(1);
    expect(issuesOf('id_capture', 'liveness')).to.have.length(1);
  });

  it('a kind array takes the types performing the kind', () => {
    expect(issuesOf('face_compare', 'face_cloud')).to.deep.equal([]);
    expect(issuesOf('face_compare', 'liveness')).to.deep.equal([
      { path: '/face_compare/0/verifier', message: 'verifier v (liveness) cannot do face_compare' },
    ]);
  });

  it('an item naming no verifier of the community is refused', () => {
    const issues = checkItems(
      { dl_verify: [{ verifier: 'gone', skip: false, debug: false, returnRawData: false }] },
      new Map(),
    );
    expect(issues).to.deep.equal([
      { path: '/dl_verify/0/verifier', message: 'names no verifier of this community: gone' },
    ]);
  });
});
