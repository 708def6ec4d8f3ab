// document_auth_c against the sandbox's document provider C (routes/documentAuthC.ts).
import { defineTestKit } from './kit.ts';
import { dl, key } from './fixtures.ts';

const config = (s: string) => ({
  license: key,
  clientId: 'client',
  clientSecret: key,
  verifierUrl: `${s}/docc/v1/verify`,
  verifierUrlV2: `${s}/docc/v2/verify`,
  document_share_session_enabled: false,
});

export const kit = defineTestKit({
  type: 'document_auth_c',
  cases: [
    {
      name: 'document auth C authentic',
      kind: 'dl_authenticate',
      config,
      document: dl('testy'),
      status: 'verified',
    },
    {
      name: 'document auth C falls back to v1',
      kind: 'dl_authenticate',
      config: (s) => ({ ...config(s), verifierUrlV2: `${s}/docc/v9/verify` }),
      document: dl('forged'),
      status: 'not_verified',
    },
  ],
  configForEveryKind: config,
  endToEnd: [
    { kind: 'dl_authenticate', config, match: () => dl('testy'), mismatch: () => dl('forged') },
  ],
});
