// Public surface of libs/client: the caller SDK (a licence's or an operator's) and callback
// verification for receivers.
export { IdvClient, type IdvClientOptions, type IdvResponse } from './client.ts';
export { IdvRequestError } from './answers.ts';
export { SessionCalls, type CreatedSession, type WaitOptions } from './sessions.ts';
export {
  OperatorClient,
  ReviewCalls,
  type CaseListOptions,
  type OperatorClientOptions,
  type ReviewTransport,
} from './review.ts';
export { verifyCallback, generateKeyPair, type CallbackVerdict, type KeyPair } from '@idv/crypto';
