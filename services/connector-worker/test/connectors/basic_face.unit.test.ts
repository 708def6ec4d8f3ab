// basic_face against real faces (the face-api package's sample photo, cropped at run time): the same
// person matches with a score over the threshold, another person does not, a configured threshold
// decides, every answer is advisory; images without a face are inconclusive; URLs, non-images,
// oversized and hostile images are refused before any model runs, off the event loop.
import { expect } from 'chai';
import { BASIC_FACE_THRESHOLD } from '@idv/contracts';
import { documentImage, jpeg } from '@idv/samples/captureImages';
import { pngBomb } from '@idv/samples/craftedImages';
import { createBasicFace } from '../../src/connectors/basic_face/adapter.ts';
import type { AdapterInput } from '../../src/connectors/connector.ts';
import { ProviderRejected, Refused } from '../../src/outcomes.ts';
import { facePairOf } from '@idv/testing/connectors/basic_face';

type Input = AdapterInput<'basic_face'>;

function input(
  document: Record<string, unknown>,
  config: Input['config'] = {},
  kind: Input['kind'] = 'face_compare',
): Input {
  // offline: an unusable http proves no provider call is made
  return {
    kind,
    connectorUrl: 'http://127.0.0.1:9/unused',
    config,
    document,
    account: null as unknown as Input['account'],
    http: null as unknown as Input['http'],
    signal: new AbortController().signal,
  };
}

async function failure(promise: Promise<unknown>): Promise<Error> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err, 'refused').to.be.instanceOf(Error);
  return err as Error;
}

describe('basic_face: face_compare offline', function () {
  this.timeout(60_000);
  const face = createBasicFace({ threads: 1 });
  after(() => face.close());

  it('the same person matches, another does not; the score and the threshold are given, advisory', async () => {
    const same = await face.adapter(input(await facePairOf(0)));
    expect(same.result).to.deep.include({
      verified: true,
      status: 'verified',
      threshold: BASIC_FACE_THRESHOLD,
      advisory: true,
    });
    expect(same.result.score).to.be.above(BASIC_FACE_THRESHOLD + 15);
    const other = await face.adapter(input(await facePairOf(2)));
    expect(other.result).to.deep.include({
      verified: false,
      status: 'not_verified',
      reasons: ['faces_differ'],
      advisory: true,
    });
    expect(other.result.score).to.be.below(BASIC_FACE_THRESHOLD - 10);
    expect(other.raw).to.deep.include({ faces: { image1: 1, image2: 1 } });
  });

  it("a verifier's threshold decides: the same pair refused at 90", async () => {
    const pair = await facePairOf(0);
    const strict = await face.adapter(input(pair, { threshold: 90 }));
    expect(strict.result).to.deep.include({ verified: false, threshold: 90, advisory: true });
  });

  it('an image without a face is inconclusive, naming it', async () => {
    const pair = await facePairOf(0);
    const card = (await jpeg(documentImage())).toString('base64');
    const { result } = await face.adapter(input({ ...pair, image2: card }));
    expect(result).to.deep.include({
      status: 'inconclusive',
      verified: false,
      reasons: ['no_face_detected', 'no_face_in_image2'],
    });
  });

  it('refuses what it cannot compare: one image, a URL, bytes that are no image, a bomb', async () => {
    const pair = await facePairOf(0);
    expect(await failure(face.adapter(input({ image1: pair.image1 })))).to.be.instanceOf(Refused);
    const url = await failure(
      face.adapter(
        input({ ...pair, image2: undefined, image2Url: 'https://example.invalid/x.jpg' }),
      ),
    );
    expect(url)
      .to.be.instanceOf(ProviderRejected)
      .and.to.have.property('message')
      .match(/offline/);
    const junk = await failure(
      face.adapter(input({ ...pair, image2: Buffer.from('not an image').toString('base64') })),
    );
    expect(junk)
      .to.be.instanceOf(Refused)
      .and.to.have.property('message')
      .match(/image2/);
    const bomb = await failure(
      face.adapter(input({ ...pair, image2: pngBomb().toString('base64') })),
    );
    expect(bomb).to.be.instanceOf(Refused);
    // refused on its header, not decoded: the message names the size the header declares
    expect(bomb.message).to.match(/image2 .*10000x10000 pixels/);
    const kind = await failure(face.adapter(input(pair, {}, 'dl_authenticate' as never)));
    expect(kind).to.be.instanceOf(ProviderRejected);
  });
});
