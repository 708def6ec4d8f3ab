// basic_ocr reads offline: its requests carry generated PDF417 licence barcodes, no sandbox.
import { aamva, pdf417 } from '@idv/samples/licences';
import { defineTestKit } from './kit.ts';

/** A licence barcode of Testy McTestface expiring on `expiry` (MMDDYYYY). */
const licence = async (expiry: string) => ({
  type: 'dl',
  barcode_image: await pdf417(aamva({ DBA: expiry })),
});

export const kit = defineTestKit({
  type: 'basic_ocr',
  cases: [],
  healthy: async () => ({
    kind: 'dl_authenticate',
    config: {},
    document: { type: 'dl', back_image: await pdf417(aamva()) },
  }),
  configForEveryKind: null,
  endToEnd: [
    {
      kind: 'dl_authenticate',
      config: () => ({}),
      match: () => licence('01312099'),
      mismatch: () => licence('01312001'),
    },
  ],
});
