// The bound on capture uploads a gateway reads at once (uploadAdmission.ts): one upload per session
// sending its body, and the bytes in flight per gateway; over either the upload is refused before
// its body is read.
import { expect } from 'chai';
import { UploadAdmission } from '../src/capture/uploadAdmission.ts';

describe('upload admission', () => {
  it('admits one upload per session sending its body and bytes up to the bound; a release (once) frees each', () => {
    const uploads = new UploadAdmission(10 * 1024);
    const a = uploads.enter('s1', 8 * 1024);
    expect(a).to.have.property('release');
    expect(uploads.enter('s1', 10)).to.deep.equal({
      busy: 'another photo of this session is being uploaded',
    });
    expect(uploads.enter('s2', 4 * 1024)).to.deep.equal({
      busy: 'too many photos are being uploaded',
    });
    const b = uploads.enter('s2', 2 * 1024);
    expect(b).to.have.property('release');
    expect(uploads.inFlight).to.equal(10 * 1024);
    if ('release' in a) (a.release(), a.release());
    expect(uploads.inFlight).to.equal(2 * 1024);
    const c = uploads.enter('s1', 8 * 1024);
    expect(c).to.have.property('release');
    // once its body is in, the session may send another (its check is bounded by CheckAdmission)
    if ('bodyRead' in c) c.bodyRead();
    expect(uploads.enter('s1', 10)).to.deep.equal({ busy: 'too many photos are being uploaded' });
    // alone, an upload over the bound is admitted: a bound under the image limit refuses nothing for good
    if ('release' in b) b.release();
    const big = new UploadAdmission(100);
    expect(big.enter('s3', 1000)).to.have.property('release');
    expect(big.enter('s4', 1)).to.have.property('busy');
  });
});
