// The image URL hosts rule: how an operator's entries are read and which URL hosts they allow.
import { expect } from 'chai';
import {
  IMAGE_URL_MEMBERS,
  imageUrlHostAllowed,
  imageUrlHostList,
  refusedImageUrls,
} from '../index.ts';

describe('image URL hosts', () => {
  it('knows every image URL member of a /verify document', () => {
    expect([...IMAGE_URL_MEMBERS].sort()).to.deep.equal(
      [
        'liveIdUrl',
        'imageUrl',
        'image1Url',
        'image2Url',
        'front_image_url',
        'back_image_url',
        'barcode_image_url',
        'front_image_flash_url',
      ].sort(),
    );
  });

  it('stores entries lower case, IDN as punycode, once each; refuses what names no host', () => {
    const read = imageUrlHostList([
      ' Images.Example.COM ',
      '*.cdn.example.com',
      'bücher.example',
      'images.example.com',
      '10.0.0.7',
      '[::1]',
      'a.example:8080',
      'a.example/path',
      'user@a.example',
      '*.',
      '*.[::1]',
      'bad_host.example',
      '*.com',
    ]);
    expect(read.hosts).to.deep.equal([
      'images.example.com',
      '*.cdn.example.com',
      'xn--bcher-kva.example',
      '10.0.0.7',
      '[::1]',
    ]);
    expect(read.invalid).to.deep.equal([
      'a.example:8080',
      'a.example/path',
      'user@a.example',
      '*.',
      '*.[::1]',
      'bad_host.example',
      '*.com',
    ]);
  });

  const hosts = ['images.example.com', '*.cdn.example.com', '10.0.0.7'];
  const cases: [string, boolean][] = [
    ['images.example.com', true],
    ['IMAGES.example.com.', true],
    ['a.cdn.example.com', true],
    ['a.b.cdn.example.com', true],
    ['cdn.example.com', false],
    ['evilcdn.example.com', false],
    ['images.example.com.evil.test', false],
    ['10.0.0.7', true],
    ['10.0.0.8', false],
  ];
  for (const [host, allowed] of cases)
    it(`${host}: ${allowed ? 'allowed' : 'refused'}`, () =>
      expect(imageUrlHostAllowed(host, hosts)).to.equal(allowed));

  it('names each refused member and its host; no list refuses nothing', () => {
    const document = {
      image1Url: 'https://images.example.com/a.jpg',
      image2Url: 'https://images.example.com@evil.test/b.jpg',
      front_image_url: 'not a url',
      // read as images.example.com here, as evil.test by a parser that decodes the authority first
      back_image_url: 'https://evil.test%23@images.example.com/c.jpg',
      barcode_image_url: 'https://images.example.com\\@evil.test/d.jpg',
      liveIdUrl: 'ftp://images.example.com/e.jpg',
      imageUrl: 'HTTPS://IMAGES.example.com:8443/f.jpg',
      image: 'QUJD',
    };
    const refused = refusedImageUrls(document, hosts);
    expect(refused.map((r) => [r.member, r.host])).to.deep.equal([
      ['liveIdUrl', ''],
      ['image2Url', 'evil.test'],
      ['front_image_url', ''],
      ['back_image_url', 'images.example.com'],
      ['barcode_image_url', 'images.example.com'],
    ]);
    expect(refused[3]!.message).to.match(/behind credentials/);
    expect(refused[1]!.message).to.match(/image2Url names host evil\.test.*image URL hosts/);
    expect(refusedImageUrls(document, [])).to.deep.equal([]);
  });
});
