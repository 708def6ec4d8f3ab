// Public surface of libs/client: the caller SDK and callback verification for receivers.
export { IdvClient, type IdvClientOptions, type IdvResponse } from './client.ts';
export {
  IdvRequestError,
  SessionCalls,
  type CreatedSession,
  type WaitOptions,
} from './sessions.ts';
export { verifyCallback, generateKeyPair, type CallbackVerdict, type KeyPair } from '@idv/crypto';
