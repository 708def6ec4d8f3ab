// Public surface of contracts/: every JSON Schema of the platform and the types derived from them.
export {
  validate,
  ajv,
  MAX_JSON_DEPTH,
  jsonNestingIssue,
  type Validation,
  type ValidationIssue,
} from './validate.ts';
export { EventEnvelope, eventEnvelope, type EventScope } from './events/envelope.ts';
export {
  EVENT_CATALOG,
  EVENT_EMITTERS,
  INTAKE_CATALOG,
  platformEmitter,
  PLATFORM_EVENT_NAMES,
  isEventName,
  DocumentValidated,
  FaceValidated,
  PersonValidated,
  VerifierChanged,
  LoginSucceeded,
  LoginFailed,
  TokenIssued,
  SessionCreatedEvent,
  SessionOpenedEvent,
  SessionSubmittedEvent,
  SessionCompletedEvent,
  SessionFailedEvent,
  SessionExpiredEvent,
  SessionAbandonedEvent,
  SessionCancelledEvent,
  VerificationCompleted,
  type EventName,
  type EventData,
} from './events/catalog.ts';
export { RequestId } from './http/credentials.ts';
export {
  ErrorBody,
  Health,
  PublicKeyObject,
  WellKnownPublicKey,
  ServiceKeyBody,
  ServiceKeyGraceEnded,
  ServiceDirectory,
  EcdsaHelperMethod,
  EcdsaHelperOauthBody,
  EcdsaHelperDataBody,
  Environment,
} from './http/common.ts';
export {
  VERIFICATION_KINDS,
  VerificationKindSchema,
  type VerificationKind,
} from './connectors/kinds.ts';
export {
  IMAGE_URL_MEMBERS,
  imageUrlHostAllowed,
  imageUrlHostList,
  refusedImageUrls,
  type RefusedImageUrl,
} from './connectors/imageUrlHosts.ts';
export {
  CONNECTORS,
  CONNECTOR_TYPES,
  CONNECTOR_BY_TYPE,
  CONFIG_BY_CONNECTOR,
  CONFIG_MEMBER_ROLES,
  KINDS_BY_CONNECTOR,
  SECRET_CONFIG_FIELDS,
  ConnectorTypeSchema,
  connectorQueue,
  callbackSecretMember,
  callbackReferenceMember,
  FOLLOW_UP_TYPES,
  FOLLOW_UP_WAIT_TIERS_MS,
  FOLLOW_UP_ANSWER_RETRY_MS,
  followUpAnswersWaitQueue,
  followUpQueue,
  followUpWaitQueue,
  workerQueues,
  validateConfig,
  type ConfigMemberRoles,
  type ConfigOf,
  type ConnectorOf,
  type ConnectorType,
} from './connectors/types/index.ts';
export {
  CERT_FILE_NAME,
  defineConnector,
  type ConnectorContract,
  type ConnectorDeployment,
  type MemberPath,
} from './connectors/connector.ts';
export {
  ExtractedFields,
  DocumentChecks,
  FaceResult,
  LivenessResult,
  DocumentResult,
  RecordCheckResult,
  RESULT_BY_KIND,
  NormalisedResult,
  FollowUp,
} from './connectors/results.ts';
export { FollowUpAnswer, FollowUpJob, FollowUpSecrets } from './messages/connectorFollowUp.ts';
export {
  CAPTURE_CHECK_QUEUE,
  CaptureCheckReply,
  CaptureCheckRequest,
} from './messages/captureCheck.ts';
export {
  RUN_WAIT_TIERS_MS,
  runWaitQueue,
  VerificationRunMessage,
} from './messages/verificationRun.ts';
export { VerifierLimits } from './connectors/limits.ts';
export { CHANNEL_RESPONSE_FIELDS, ChannelConfiguration } from './connectors/scanChannel.ts';
export {
  ConnectorJob,
  ConnectorJobSecrets,
  ConnectorReply,
  ConnectorOutcome,
} from './messages/connectorJob.ts';
export { DocverifyWellKnown } from './http/docverifyWellKnown.ts';
export { ErasureRequest, ErasureResponse, Tombstone } from './http/erasure.ts';
export { TAG_PATTERN, VerifierCreate, VerifierPatch, Verifier } from './http/docverifyVerifier.ts';
export {
  CONFIG_ARRAYS,
  ConfigItem,
  VerificationSettings,
  VerificationConfigCreate,
  VerificationConfigPatch,
  type ConfigArray,
  type VerificationConfigBody,
} from './http/docverifyConfig.ts';
export {
  VerifyBody,
  EncryptedAnswer,
  VerifyDocument,
  VerifyRequest,
  VerifyResult,
  Certification,
  EVENT_INFO_FIELDS,
  RUN_STATUSES,
  VerifyAccepted,
  VerificationView,
  DOCUMENT_IMAGE_MEMBERS,
  withoutDocumentImages,
  type RunStatus,
} from './http/docverifyVerify.ts';
export {
  AUTH_TYPES,
  HTTP_METHODS,
  QUERY_DESCRIPTION,
  QueryEntry,
  WebhookApi,
  WebhookCredential,
  WebhookCreate,
  WebhookPatch,
  Webhook,
  WebhookFetchBody,
  WebhookFetchResult,
  EventAccepted,
  EventIntakeBody,
} from './http/webhooks.ts';
export {
  WebhookCallbackBody,
  DELIVERY_STATUSES,
  DeliveryAttempt,
  Delivery,
  DeliveryListQuery,
  DeliveryList,
  webhookSealContext,
  WEBHOOK_CHANGED_CHANNEL,
  DELIVERIES_DUE_CHANNEL,
  type DeliveryStatus,
} from './messages/webhookCallback.ts';
export {
  OauthTokenSet,
  OauthIntrospection,
  OauthDiscovery,
  OauthJwks,
  OauthEamContext,
} from './http/oauth.ts';
export {
  SESSION_STATES,
  FINAL_SESSION_STATES,
  SESSION_TRANSITIONS,
  SESSION_DOCUMENT_TYPES,
  DOCUMENT_TYPE_WORDS,
  sessionDocumentTypeOf,
  SessionRequest,
  SessionCreate,
  SessionRef,
  SessionCreated,
  SessionView,
  SessionSummary,
  SessionListQuery,
  SessionList,
  wireStatusOf,
  type SessionState,
  type SessionWireStatus,
  type SessionTimer,
  type SessionTransition,
  type SessionDocumentType,
} from './http/sessions.ts';
export {
  CAPTURE_SIDES,
  CAPTURE_PROBLEMS,
  CAPTURE_MEDIA_TYPES,
  CONSENT_TEXT_VERSION,
  CaptureSession,
  CaptureConsent,
  CaptureDocumentType,
  CaptureImageVerdict,
  CaptureStatus,
  type CaptureSide,
  type CaptureProblem,
} from './http/capture.ts';
