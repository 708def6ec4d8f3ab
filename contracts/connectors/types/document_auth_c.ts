// document_auth_c: document authentication at a provider whose URLs are always configured
// (version 2 asked first, version 1 when it is not there).
import { Type } from '@sinclair/typebox';
import { defineConnector, str, strict, uri } from '../connector.ts';

export const document_auth_c = defineConnector({
  type: 'document_auth_c',
  kinds: ['dl_authenticate', 'ppt_authenticate', 'idcard_authenticate'],
  configArrays: ['id_capture'],
  config: Type.Object(
    {
      license: str(),
      clientId: str(),
      clientSecret: str(),
      verifierUrl: uri('verification endpoint'),
      verifierUrlV2: uri('verification endpoint, version 2'),
      document_share_session_enabled: Type.Boolean(),
    },
    strict,
  ),
  secrets: ['license', 'clientSecret'],
  addresses: ['verifierUrl', 'verifierUrlV2'],
  deployment: { compute: 'io' },
});
