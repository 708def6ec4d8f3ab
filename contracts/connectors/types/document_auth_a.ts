// document_auth_a: document authentication, document liveness and face match at a document
// provider, plus the settings of its hosted scan sessions (written `scan_*`).
import { Type } from '@sinclair/typebox';
import { defineConnector, opt, str, strict, uri } from '../connector.ts';
import { CHANNEL_RESPONSE_FIELDS, ChannelConfiguration } from '../scanChannel.ts';

export const document_auth_a = defineConnector({
  type: 'document_auth_a',
  kinds: [
    'dl_authenticate',
    'ppt_authenticate',
    'idcard_authenticate',
    'document_liveness',
    'face_compare',
  ],
  configArrays: ['id_capture'],
  config: Type.Object(
    {
      airAccessKey: opt(str()),
      airSecretToken: opt(str()),
      airAPI: opt(uri('document authentication endpoint')),
      faceAPI: opt(uri('face match endpoint')),
      faceAPIKey: opt(str()),
      documentLivenessCheckAPI: opt(uri('document liveness endpoint')),
      document_share_session_enabled: opt(Type.Boolean()),
      accountCode: opt(str('scan sessions')),
      scan_url: opt(uri('scan session endpoint')),
      scan_cert: opt(str('JSON-stringified certificate')),
      scan_key: opt(str('JSON-stringified key')),
      scan_channelConfiguration: opt(ChannelConfiguration),
      scan_channelResponse: opt(
        Type.Array(Type.Union(CHANNEL_RESPONSE_FIELDS.map((f) => Type.Literal(f)))),
      ),
    },
    strict,
  ),
  secrets: ['airSecretToken', 'faceAPIKey', 'scan_cert', 'scan_key'],
  addresses: ['airAPI', 'faceAPI', 'documentLivenessCheckAPI', 'scan_url'],
  deployment: { compute: 'io' },
});
