// Which document members are images: a run parked on a follow-up drops them and keeps the rest.
import { expect } from 'chai';
import { DOCUMENT_IMAGE_MEMBERS, withoutDocumentImages } from '../index.ts';

describe('contracts: document images', () => {
  it('lists every image and image link of the document, and nothing else', () => {
    expect([...DOCUMENT_IMAGE_MEMBERS].sort()).to.deep.equal(
      [
        'liveId',
        'liveIdUrl',
        'image',
        'imageUrl',
        'image1',
        'image1Url',
        'image2',
        'image2Url',
        'front_image',
        'back_image',
        'barcode_image',
        'front_image_flash',
        'front_image_url',
        'back_image_url',
        'barcode_image_url',
        'front_image_flash_url',
      ].sort(),
    );
  });

  it('keeps the data a comparison needs and drops the images', () => {
    const request = {
      dvcID: 'kyc',
      verifications: ['dl_authenticate'],
      document: {
        id: 'd1',
        type: 'dl',
        firstName: 'Testy',
        front_image: 'AAAA',
        imageUrl: 'https://x.example/i',
      },
    };
    expect(withoutDocumentImages(request)).to.deep.equal({
      dvcID: 'kyc',
      verifications: ['dl_authenticate'],
      document: { id: 'd1', type: 'dl', firstName: 'Testy' },
    });
    expect(withoutDocumentImages({ dvcID: 'kyc' })).to.deep.equal({ dvcID: 'kyc' });
    const imageless = { dvcID: 'kyc', document: { id: 'd1', type: 'dl' } };
    expect(withoutDocumentImages(imageless), 'nothing to drop: the same request').to.equal(
      imageless,
    );
  });
});
