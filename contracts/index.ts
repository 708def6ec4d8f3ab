// Public surface of contracts/: every JSON Schema of the platform and the types derived from them.
export { validate, ajv, type Validation, type ValidationIssue } from './validate.ts';
export { EventEnvelope } from './events/envelope.ts';
export {
  EVENT_CATALOG,
  isEventName,
  DocumentValidated,
  VerifierChanged,
  LoginSucceeded,
  LoginFailed,
  TokenIssued,
  type EventName,
  type EventData,
} from './events/catalog.ts';
export { RequestId } from './http/credentials.ts';
export {
  ErrorBody,
  Health,
  PublicKeyObject,
  ServiceKeyBody,
  ServiceDirectory,
  EcdsaHelperMethod,
  EcdsaHelperOauthBody,
  EcdsaHelperDataBody,
  Environment,
} from './http/common.ts';
