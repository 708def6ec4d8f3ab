// Public surface of libs/platform: the platform schema's data and its migrations.
export { platformMigrations } from './migrations.ts';
export {
  countLegacyValues,
  migrateLegacyValues,
  type SealedColumn,
  type SealedRow,
} from './legacySealed.ts';
export {
  DataKeyGone,
  createKeyring,
  Keyring,
  localKeyring,
  reapplyErasures,
  KeyRefused,
  RetireRefused,
  type DataKeyInsert,
  type KeyProviderSettings,
  type KeyOwner,
  type KeyringOptions,
  type KeyStatus,
} from './keyring.ts';
export {
  TenantStore,
  UUID,
  NotFoundInPlatform,
  DuplicateInPlatform,
  InvalidInPlatform,
  type Tenant,
  type Community,
} from './tenants.ts';
export {
  LicenceStore,
  LICENCE_LEVELS,
  type Licence,
  type LicenceLevel,
  type LicenceVerdict,
  type NewLicence,
} from './licences.ts';
export {
  SERVICE_KEY_SEALED,
  ServiceKeyStore,
  ServiceKeyUnreadable,
  SERVICE_NAMES,
  MAX_PREVIOUS_SERVICE_KEYS,
  type AcceptedServiceKey,
  type PreviousServiceKey,
  type ServiceKey,
  type ServiceKeySet,
  type ServiceKeyStoreOptions,
  type ServiceName,
  type CurrentServiceKey,
  type EndedGrace,
} from './serviceKeys.ts';
export { ReplayGuard } from './replayGuard.ts';
export {
  RateLimitStore,
  RATE_SCOPES,
  checkRateLimit,
  type OperatorRateLimit,
  type RateLimit,
  type RateScope,
  type RateSubject,
} from './rateLimits.ts';
export {
  RateBuckets,
  type BucketView,
  type RateBucketOptions,
  type RateDecision,
  type RateDefaults,
} from './rateBuckets.ts';
export {
  appendAudit,
  verifyAuditChain,
  type AuditChainBreak,
  type AuditChainVerdict,
  type AuditEntry,
} from './auditLog.ts';
