// The obviously fake people and documents the provider sandbox knows, shared by the kits.
export const image = (text: string) => Buffer.from(text).toString('base64');

/** the API key every sandbox route accepts */
export const key = 'sandbox-key';

export const testy = {
  firstName: 'Testy',
  lastName: 'McTestface',
  dob: '19700101',
  ssn: '000-00-0000',
};

export const faces = (a: string, b: string) => ({
  image1: image(`FACE:${a}`),
  image2: image(`FACE:${b}`),
});

/** a driving licence whose front the sandbox reads as `name` (testy, forged, expired, blurry) */
export const dl = (name: string) => ({ type: 'dl', front_image: image(`DOC:${name}`) });

/** A driving licence for dl_verify, as the licence registry's sandbox knows it. */
export const dlVerifyLicence = {
  documentType: 'DL',
  country: 'US',
  documentId: 'D0000001',
  state: 'CA',
  firstName: 'Testy',
  lastName: 'McTestface',
  dob: '19700101',
};

/** The licence registry's message ids every dl_verify config carries. */
export const dldvIds = { messageOriginatorId: 'IDV', messageDestinationId: 'REG' };
