// What the session use cases work with, built once in start.ts.
import type { EventEnvelope } from '@idv/contracts';
import type { EventOutbox } from '@idv/db';
import type { Keyring } from '@idv/platform';
import type { CheckCapture } from '@idv/capture-checks';
import type { Clock } from '../shared/clock.ts';
import type { ReviewCaseStore } from '../review/reviewCaseStore.ts';
import type { ReviewSealedStore } from '../review/reviewSealedStore.ts';
import type { RunStore } from '../runs/runStore.ts';
import type { SessionImageStore } from './sessionImageStore.ts';
import type { SessionStore } from './sessionStore.ts';
import type { VerificationConfigStore } from '../verificationConfigs/verificationConfigStore.ts';
import type { VerifierStore } from '../verifiers/verifierStore.ts';
import type { RunQueue } from '../runs/runQueue.ts';

export interface SessionDeps {
  sessions: SessionStore;
  images: SessionImageStore;
  runs: RunStore;
  configs: VerificationConfigStore;
  verifiers: VerifierStore;
  /** the data keys of sessions and runs */
  keys: Keyring;
  outbox: EventOutbox<EventEnvelope>;
  clock: Clock;
  runQueue: RunQueue;
  checkCapture: CheckCapture;
  /** base of the page URL (DOCVERIFY_PUBLIC_URL) */
  publicUrl: string;
  /** how long a session's run may wait for its connectors (ASYNC_VERIFY_DEADLINE_MS) */
  runDeadlineMs: number;
  /** review cases: a resubmission's session reads its case */
  reviews: ReviewCaseStore;
  /** what a case keeps sealed: a caller reads the resubmission awaited from it */
  reviewSealed: ReviewSealedStore;
}
