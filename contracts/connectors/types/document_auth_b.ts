// document_auth_b: document authentication and face compare at a document provider behind an
// OAuth client-credentials token, shaped per document type by token flows.
import { Type } from '@sinclair/typebox';
import { defineConnector, opt, str, strict, uri } from '../connector.ts';
import { TokenFlow } from '../scanChannel.ts';

export const document_auth_b = defineConnector({
  type: 'document_auth_b',
  kinds: ['dl_authenticate', 'ppt_authenticate', 'idcard_authenticate', 'face_compare'],
  configArrays: ['id_capture'],
  config: Type.Object(
    {
      clientUrl: opt(uri('OAuth token endpoint')),
      clientId: opt(str()),
      clientSecretKey: opt(str()),
      apiUrl: opt(uri('document API base')),
      apiKey: opt(str()),
      faceAPIKey: opt(str()),
      tokenConfiguration: opt(
        Type.Object({ dl: opt(TokenFlow), ppt: opt(TokenFlow), idcard: opt(TokenFlow) }, strict),
      ),
      keepTransaction: opt(Type.Boolean()),
      document_share_session_enabled: opt(Type.Boolean()),
    },
    strict,
  ),
  secrets: ['clientSecretKey', 'apiKey', 'faceAPIKey'],
  addresses: ['clientUrl', 'apiUrl'],
  deployment: { compute: 'io' },
});
