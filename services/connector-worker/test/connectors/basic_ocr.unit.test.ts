// basic_ocr against real generated images: PDF417 licences (zxing + AAMVA) and passport MRZ (OCR).
import { expect } from 'chai';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { Jimp } from 'jimp';
import type { AdapterInput } from '../../src/connectors/connector.ts';
import { ProviderRejected, Refused } from '../../src/outcomes.ts';
import { accountOf } from '../../src/provider/accounts.ts';
import { basicOcr, createBasicOcr } from '../../src/connectors/basic_ocr/adapter.ts';
import { createOcrEngine, offlineOcrOptions } from '@idv/docread';
import { mrzPng, SPECIMEN_MRZ, TESTY_MRZ } from '@idv/samples/idDocuments';
import { aamva, pdf417 } from '@idv/samples/licences';
import { jpegStuffedDecoy, pngBomb, pngHeaderOnly } from '@idv/samples/craftedImages';
import { measureMemory } from '@idv/testing/memoryUse';

const TODAY = new Date('2025-06-01T12:00:00Z');

type Input = AdapterInput<'basic_ocr'>;

function input(kind: Input['kind'], document: Record<string, unknown>): Input {
  // connectorUrl and http are unused offline; an unusable http proves no provider call is made.
  return {
    kind,
    connectorUrl: 'http://127.0.0.1:9/unused',
    config: {},
    document: { id: 'doc-1', ...document },
    account: accountOf(
      { verifier: { id: 'ocr', connectorUrl: '' }, context: { communityId: 'c-1' } },
      {},
    ),
    http: null as unknown as Input['http'],
    signal: new AbortController().signal,
  };
}

async function blankPng(): Promise<string> {
  const image = new Jimp({ width: 400, height: 200, color: 0xffffffff });
  return (await image.getBuffer('image/png')).toString('base64');
}

async function expectRejected(
  promise: Promise<unknown>,
  message: RegExp,
  outcome: typeof ProviderRejected | typeof Refused = ProviderRejected,
): Promise<void> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).to.be.instanceOf(outcome);
  expect((err as Error).message).to.match(message);
}

describe('basic_ocr: driver licence PDF417', function () {
  const ocr = createBasicOcr({ today: () => TODAY });
  const realFetch = globalThis.fetch;
  before(() => {
    // zxing fetches its wasm from a CDN unless given the packaged binary: any fetch fails the suite.
    globalThis.fetch = () => Promise.reject(new Error('network used by basic_ocr'));
  });
  after(async () => {
    globalThis.fetch = realFetch;
    await ocr.close();
  });

  it('decodes the barcode and reports AAMVA fields and passing checks', async () => {
    const barcode_image = await pdf417(aamva());
    const started = Date.now();
    const { result } = await ocr.adapter(input('dl_authenticate', { type: 'dl', barcode_image }));
    console.log(`      PDF417 decode + parse: ${Date.now() - started} ms`);
    expect(result).to.deep.include({ verified: true, status: 'verified', reasons: [] });
    expect(result).to.have.deep.property('extracted', {
      firstName: 'TESTY',
      middleName: 'Q',
      lastName: 'MCTESTFACE',
      dob: '1970-01-31',
      documentNumber: 'L00000001',
      expiry: '2035-01-31',
      issueDate: '2020-08-24',
      issuer: 'AZ',
      country: 'USA',
      sex: 'M',
      address: '1 TEST ST, ANYTOWN, AZ, 850010000',
    });
    expect(result).to.have.deep.property('checks', {
      requiredFields: true,
      notExpired: true,
      issued: true,
      issuerKnown: true,
    });
  });

  const failing: [string, Record<string, string>, string, string][] = [
    ['expired', { DBA: '01312020' }, 'notExpired', 'document_expired'],
    ['from an unknown jurisdiction', { DAJ: 'ZZ' }, 'issuerKnown', 'unknown_issuer'],
    ['issued in the future', { DBD: '01012030' }, 'issued', 'issue_date_in_future'],
  ];
  for (const [what, fields, check, reason] of failing) {
    it(`a licence ${what} is read but not verified (${reason})`, async () => {
      const barcode_image = await pdf417(aamva(fields));
      const { result } = await ocr.adapter(input('idcard_authenticate', { barcode_image }));
      expect(result).to.deep.include({
        verified: false,
        status: 'not_verified',
        reasons: [reason],
      });
      expect(result).to.have.nested.property(`checks.${check}`, false);
    });
  }

  it('falls back to back_image, and the stateless adapter needs no setup', async () => {
    const back_image = await pdf417(aamva());
    const { result } = await basicOcr(input('dl_authenticate', { front_image: '', back_image }));
    expect(result.verified).to.equal(true);
  });

  it('dl_verify compares submitted fields with the barcode', async () => {
    const barcode_image = await pdf417(aamva());
    const submitted = {
      firstName: 'Testy',
      lastName: 'McTestface',
      dob: '19700131',
      documentId: 'L00000002',
    };
    const { result } = await ocr.adapter(input('dl_verify', { barcode_image, ...submitted }));
    expect(result).to.deep.include({
      verified: false,
      reasons: ['documentId_mismatch'],
      fieldMatches: { firstName: true, lastName: true, dob: true, documentId: false },
    });
  });

  const rejected: [string, () => Promise<Record<string, unknown>>, RegExp, typeof Refused?][] = [
    ['no image', async () => ({}), /no image given/],
    [
      'a presigned URL only',
      async () => ({ barcode_image_url: 'https://example.invalid/x' }),
      /offline.*barcode_image_url/,
    ],
    // refused by the image limits before anything reads it: invalid input, like the platform's other refusals
    [
      'bytes that are no image',
      async () => ({ barcode_image: Buffer.from('not an image').toString('base64') }),
      /not a decodable image/,
      Refused,
    ],
    ['an image without a barcode', async () => ({ barcode_image: await blankPng() }), /no PDF417/],
    [
      'a PDF417 without AAMVA data',
      async () => ({ barcode_image: await pdf417('HELLO TESTY') }),
      /AAMVA/,
    ],
  ];
  for (const [what, document, message, outcome] of rejected) {
    it(`rejects ${what} as an invalid request`, async () => {
      await expectRejected(
        ocr.adapter(input('dl_authenticate', await document())),
        message,
        outcome,
      );
    });
  }

  it('rejects kinds it does not serve', async () => {
    await expectRejected(ocr.adapter(input('face_compare', {})), /does not serve face_compare/);
  });
});

describe('basic_ocr: hostile images are refused before decoding, off the event loop', function () {
  this.timeout(60_000);
  const ocr = createBasicOcr({ today: () => TODAY });
  after(() => ocr.close());
  const base64 = (bytes: Buffer) => bytes.toString('base64');

  it('the 10000x10000 1-bit PNG bomb: refused at once, memory flat, the next licence still read', async () => {
    const bomb = pngBomb();
    const licence = await pdf417(aamva());
    const settled: string[] = [];
    const [[refused, answered], use] = await measureMemory(() =>
      Promise.all([
        ocr
          .adapter(input('dl_authenticate', { barcode_image: base64(bomb) }))
          .catch((e: unknown) => (settled.push('bomb refused'), e)),
        ocr
          .adapter(input('dl_authenticate', { barcode_image: licence }))
          .finally(() => settled.push('licence read')),
      ]),
    );
    console.log(
      `      bomb (${bomb.length} bytes) refused beside a licence read in ${use.elapsedMs} ms (its thread starting), rss ${use.beforeMb} MB, peak +${use.grewMb} MB`,
    );
    // at once: on its header, not after the licence's decode
    expect(settled).to.deep.equal(['bomb refused', 'licence read']);
    expect(refused)
      .to.be.instanceOf(Refused)
      .and.include({ code: 'invalid_input', outcome: 'invalid_request' });
    expect((refused as Error).message).to.equal(
      'barcode_image is refused: the image is 10000x10000 pixels, over the limit of 50 megapixels',
    );
    expect(answered.result.verified).to.equal(true);
    expect(use.grewMb).to.be.below(150); // the licence's own thread and decode; decoded, the bomb grew the worker by 1.2 GB
    const [again, alone] = await measureMemory(() =>
      ocr.adapter(input('dl_verify', { barcode_image: base64(bomb) })).catch((e: unknown) => e),
    );
    console.log(`      bomb alone: refused in ${alone.elapsedMs} ms, peak +${alone.grewMb} MB`);
    expect(again).to.be.instanceOf(Refused);
    expect(alone.grewMb).to.be.below(20);
  });

  it('the FF 00 JPEG by its true 8000x6700, a 16-bit PNG by its bytes, and a passport bomb', async () => {
    const cases: [string, Record<string, unknown>, RegExp][] = [
      [
        'dl_authenticate',
        { back_image: base64(jpegStuffedDecoy()) },
        /back_image is refused: the image is 8000x6700 pixels/,
      ],
      [
        'idcard_authenticate',
        {
          barcode_image: base64(
            pngHeaderOnly({ width: 6000, height: 5000, bitDepth: 16, colourType: 6 }),
          ),
        },
        /decodes to 240 MB .* over the limit of 200 MB/,
      ],
      [
        'ppt_authenticate',
        { front_image: `data:image/png;base64,${base64(pngBomb())}` },
        /front_image is refused: the image is 10000x10000/,
      ],
    ];
    for (const [kind, document, message] of cases) {
      const [err, use] = await measureMemory(() =>
        ocr.adapter(input(kind as Input['kind'], document)).catch((e: unknown) => e),
      );
      console.log(`      ${kind}: refused in ${use.elapsedMs} ms, peak +${use.grewMb} MB`);
      expect(err, kind).to.be.instanceOf(Refused);
      expect((err as Error).message, kind).to.match(message);
      expect(use.grewMb, kind).to.be.below(20);
    }
  });

  it('a read that waits its whole time limit for a thread is busy, not refused', async () => {
    const slow = createBasicOcr({ today: () => TODAY, images: { threads: 1, timeoutMs: 1 } });
    try {
      const err = await slow
        .adapter(input('dl_authenticate', { barcode_image: await pdf417(aamva()) }))
        .catch((e: unknown) => e);
      expect(err).to.include({ outcome: 'busy', code: 'verifier_saturated' });
    } finally {
      await slow.close();
    }
  });
});

/** MRZ lines as black OCR-B text on white, base64. */
const mrzImage = async (lines: string[]) => (await mrzPng(lines)).toString('base64');

describe('basic_ocr: passport MRZ by OCR', function () {
  this.timeout(60_000); // tesseract on shared cores: start-up plus a few reads
  const ocr = createBasicOcr({ today: () => TODAY });
  after(() => ocr.close());

  it('keeps tesseract on packaged files: local gzip data, no cache, fetch-less worker', () => {
    const options = offlineOcrOptions();
    expect(options.langPath)
      .to.be.a('string')
      .and.not.match(/^[a-z]+:/i);
    expect(existsSync(path.join(options.langPath!, 'eng.traineddata.gz'))).to.equal(true);
    expect(options.langPath).to.contain(path.join('node_modules', '@tesseract.js-data', 'eng'));
    expect(options).to.include({ gzip: true, cacheMethod: 'none' });
    expect(existsSync(options.workerPath!)).to.equal(true);
  });

  it('the OCR worker thread cannot download: a CDN langPath fails instead of fetching', async () => {
    const cdn = 'https://cdn.jsdelivr.net/npm/@tesseract.js-data/eng/4.0.0_best_int';
    const err = await createOcrEngine({ langPath: cdn }).then(
      (engine) => engine.close(),
      (e: unknown) => e,
    );
    expect(String(err)).to.match(/failed to start.*runs offline/);
  });

  it('reads the MRZ and reports fields with all checks passing', async () => {
    const front_image = await mrzImage(TESTY_MRZ);
    const started = Date.now();
    const { result } = await ocr.adapter(input('ppt_authenticate', { type: 'ppt', front_image }));
    console.log(`      MRZ OCR (incl. worker start): ${Date.now() - started} ms`);
    expect(result).to.deep.include({ verified: true, status: 'verified', reasons: [] });
    expect(result).to.have.deep.property('extracted', {
      firstName: 'TESTY',
      middleName: 'JANE',
      lastName: 'MCTESTFACE',
      dob: '1985-03-17',
      documentNumber: 'X53274861',
      expiry: '2033-09-12',
      issuer: 'GBR',
      country: 'GBR',
      sex: 'F',
    });
    expect(result).to.have.deep.property('checks', {
      checkDigits: true,
      issuerKnown: true,
      notExpired: true,
      fieldsValid: true,
    });
  });

  it('a tampered document number check digit is read but not verified', async () => {
    const tampered = [TESTY_MRZ[0]!, TESTY_MRZ[1]!.replace('X532748613', 'X532748614')];
    const started = Date.now();
    const { result } = await ocr.adapter(
      input('ppt_authenticate', { front_image: await mrzImage(tampered) }),
    );
    console.log(`      MRZ OCR (worker warm): ${Date.now() - started} ms`);
    expect(result).to.deep.include({ verified: false, reasons: ['check_digit_mismatch'] });
    expect(result).to.have.nested.property('checks.checkDigits', false);
  });

  it('the ICAO specimen: check digits hold, but Utopia is no issuer and it expired in 2012', async () => {
    const { result } = await ocr.adapter(
      input('ppt_authenticate', { front_image: await mrzImage(SPECIMEN_MRZ) }),
    );
    expect(result).to.have.nested.property('extracted.lastName', 'ERIKSSON');
    expect(result).to.have.nested.property('checks.checkDigits', true);
    expect(result.reasons).to.include.members(['unknown_issuer', 'document_expired']);
    expect(result.verified).to.equal(false);
  });

  it('rejects an image with no MRZ, and a presigned URL', async () => {
    const blank = input('ppt_authenticate', { front_image: await blankPng() });
    await expectRejected(ocr.adapter(blank), /no machine readable zone/);
    const url = input('ppt_authenticate', { front_image_url: 'https://example.invalid/p' });
    await expectRejected(ocr.adapter(url), /offline/);
  });
});
