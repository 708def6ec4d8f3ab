// The platform schema's migration set, for the migrate command and test databases.
import type { MigrationSet } from '@idv/db';
import * as initial from '../migrations/001_platform.ts';
import * as retiredServiceKeys from '../migrations/002_retired_service_keys.ts';
import * as rateLimits from '../migrations/003_rate_limits.ts';
import * as tenantRateLimits from '../migrations/004_tenant_rate_limits.ts';
import * as keystore from '../migrations/005_keystore.ts';
import * as keystoreGuards from '../migrations/006_keystore_guards.ts';
import * as auditLog from '../migrations/007_audit_log.ts';
import * as erasureReason from '../migrations/008_erasure_reason.ts';
import * as auditChain from '../migrations/009_audit_chain.ts';
import * as imageBudget from '../migrations/010_image_budget.ts';

export const platformMigrations: MigrationSet = {
  schema: 'platform',
  migrations: {
    '001_platform': initial,
    '002_retired_service_keys': retiredServiceKeys,
    '003_rate_limits': rateLimits,
    '004_tenant_rate_limits': tenantRateLimits,
    '005_keystore': keystore,
    '006_keystore_guards': keystoreGuards,
    '007_audit_log': auditLog,
    '008_erasure_reason': erasureReason,
    '009_audit_chain': auditChain,
    '010_image_budget': imageBudget,
  },
};
