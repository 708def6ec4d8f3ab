// Every column of the platform that holds a sealed value, as each store declares it: what the
// move of MASTER_KEY's old values to data keys goes through, and what `master-key status` counts.
import { SERVICE_KEY_SEALED, type SealedColumn } from '@idv/platform';
import { RUN_SEALED } from '../../docverify-gateway/src/runs/runStore.ts';
import { SESSION_SEALED } from '../../docverify-gateway/src/sessions/sessionImageStore.ts';
import { VERIFICATION_SEALED } from '../../docverify-gateway/src/verify/verificationStore.ts';
import { VERIFIER_SEALED } from '../../docverify-gateway/src/verifiers/verifierStore.ts';
import { CLIENT_SEALED } from '../../oauth/src/store/clientStore.ts';
import { SIGNING_KEY_SEALED } from '../../oauth/src/store/signingKeyStore.ts';
import { WEBHOOK_SEALED } from '../../webhooks-gateway/src/store/webhooks.ts';

export const SEALED_COLUMNS: readonly SealedColumn[] = [
  ...SERVICE_KEY_SEALED,
  ...VERIFIER_SEALED,
  ...VERIFICATION_SEALED,
  ...RUN_SEALED,
  ...SESSION_SEALED,
  ...CLIENT_SEALED,
  ...SIGNING_KEY_SEALED,
  ...WEBHOOK_SEALED,
];
