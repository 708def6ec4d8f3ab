// The docverify schema's migration set.
import type { MigrationSet } from '@idv/db';
import * as initial from '../migrations/001_docverify.ts';
import * as verifications from '../migrations/002_verifications.ts';
import * as eventOutbox from '../migrations/003_event_outbox.ts';
import * as sessions from '../migrations/004_sessions.ts';
import * as verifierLimits from '../migrations/005_verifier_limits.ts';
import * as verifierVersion from '../migrations/006_verifier_version.ts';
import * as callbackReplays from '../migrations/007_callback_replays.ts';
import * as sessionOwner from '../migrations/008_session_owner.ts';
import * as imageUrlHosts from '../migrations/009_image_url_hosts.ts';
import * as erasures from '../migrations/010_erasures.ts';
import * as reviewCases from '../migrations/011_review_cases.ts';
import * as reviewClaimedFrom from '../migrations/012_review_claimed_from.ts';
import * as connectorMinutes from '../migrations/013_connector_minutes.ts';
import * as sessionLocale from '../migrations/014_session_locale_optional.ts';

export const docverifyMigrations: MigrationSet = {
  schema: 'docverify',
  migrations: {
    '001_docverify': initial,
    '002_verifications': verifications,
    '003_event_outbox': eventOutbox,
    '004_sessions': sessions,
    '005_verifier_limits': verifierLimits,
    '006_verifier_version': verifierVersion,
    '007_callback_replays': callbackReplays,
    '008_session_owner': sessionOwner,
    '009_image_url_hosts': imageUrlHosts,
    '010_erasures': erasures,
    '011_review_cases': reviewCases,
    '012_review_claimed_from': reviewClaimedFrom,
    '013_connector_minutes': connectorMinutes,
    '014_session_locale_optional': sessionLocale,
  },
};
