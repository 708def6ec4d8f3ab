// Real PNG and JPEG images name their sandbox fixture inside (a tEXt chunk `fixture`, a JPEG
// comment), several at once if need be; plain-bytes fixtures keep working as before.
import { expect } from 'chai';
import { documentImage, jpeg, png, selfieImage } from '@idv/samples/captureImages';
import { embeddedFixture } from '../src/embeddedFixture.ts';
import { documentOf, faceOf, imageText } from '../src/fixtures.ts';
import { startSandbox, type RunningSandbox } from '../src/start.ts';

const b64 = (bytes: Buffer) => bytes.toString('base64');

describe('provider sandbox: fixture names inside real images', function () {
  this.timeout(30_000);
  let sandbox: RunningSandbox;
  before(async () => {
    sandbox = await startSandbox(0);
  });
  after(async () => sandbox?.close());

  it('reads every fixture name of a PNG (tEXt) and a JPEG (COM), and none of a bare image', async () => {
    const card = documentImage(400, 252);
    expect(embeddedFixture(await png(card, 'DOC:testy', 'FACE:testy'))).to.equal(
      'DOC:testy\nFACE:testy',
    );
    expect(embeddedFixture(await jpeg(card, 'FACE:fakey'))).to.equal('FACE:fakey');
    expect(embeddedFixture(await png(card))).to.equal('');
    expect(embeddedFixture(Buffer.from('FACE:testy'))).to.equal(undefined);
  });

  it('decides documents and faces from them, and from plain bytes as before', async () => {
    const front = imageText(b64(await png(documentImage(400, 252), 'DOC:testy', 'FACE:testy')));
    expect(documentOf(front)?.genuine).to.equal(true);
    expect(faceOf(front)).to.equal('testy');
    expect(faceOf(imageText(b64(await jpeg(selfieImage(240, 320), 'FACE:testy'))))).to.equal(
      'testy',
    );
    expect(faceOf(imageText(b64(await png(selfieImage(240, 320)))))).to.equal(undefined);
    expect(faceOf(imageText(b64(Buffer.from('FACE:testy'))))).to.equal('testy');
    expect(documentOf(imageText(b64(Buffer.from('DOC:forged'))))?.genuine).to.equal(false);
  });

  it('matches the face of a selfie JPEG with the one on a licence PNG over HTTP', async () => {
    const compare = async (source: Buffer, target: Buffer) => {
      const res = await fetch(`${sandbox.url}/facematch/v1/compare`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': 'sandbox-key' },
        body: JSON.stringify({ source: { image: b64(source) }, target: { image: b64(target) } }),
      });
      return (await res.json()) as { match: boolean };
    };
    const licence = await png(documentImage(400, 252), 'DOC:testy', 'FACE:testy');
    expect(
      (await compare(await jpeg(selfieImage(240, 320), 'FACE:testy'), licence)).match,
    ).to.equal(true);
    expect(
      (await compare(await jpeg(selfieImage(240, 320), 'FACE:fakey'), licence)).match,
    ).to.equal(false);
  });
});
