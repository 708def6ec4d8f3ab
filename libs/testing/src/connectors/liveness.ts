// liveness against the sandbox's liveness provider (routes/liveness.ts).
import { expect } from 'chai';
import { defineTestKit } from './kit.ts';
import { image, key } from './fixtures.ts';

export const kit = defineTestKit({
  type: 'liveness',
  cases: [
    {
      name: 'face liveness live (HARDENED)',
      kind: 'face_liveness',
      config: () => ({ apiKey: key, calibration: 'HARDENED' }),
      document: { liveId: image('LIVE') },
      status: 'verified',
      check: (r) => expect(r.calibration).to.equal('HARDENED'),
    },
    {
      name: 'face liveness 0.6 fails HARDENED from metaHeaders',
      kind: 'face_liveness',
      config: () => ({ apiKey: key }),
      document: { liveId: image('LIVE:0.6'), metaHeaders: { calibration: 'HARDENED' } },
      status: 'not_verified',
    },
    {
      name: 'document liveness',
      kind: 'document_liveness',
      config: () => ({ documentApiKey: key }),
      document: { image: image('DOC:testy') },
      status: 'verified',
    },
  ],
  configForEveryKind: () => ({ apiKey: key, documentApiKey: key }),
  endToEnd: [
    {
      kind: 'face_liveness',
      config: () => ({ apiKey: key, calibration: 'REGULAR' }),
      match: () => ({ liveId: image('LIVE') }),
      mismatch: () => ({ liveId: image('SPOOF') }),
    },
    {
      kind: 'document_liveness',
      tag: 'doc-liveness',
      config: () => ({ documentApiKey: key }),
      match: () => ({ image: image('DOC:testy') }),
      mismatch: () => ({ image: image('SPOOF') }),
    },
  ],
});
