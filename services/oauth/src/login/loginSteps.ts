// The steps of one sign-in between its first factor and its end (second factor, enrolment,
// recovery codes), keyed by the oidc-provider interaction, which only its own browser reaches.
import type { Knex } from '@idv/db';

const TABLE = 'oauth.login_steps';

export type LoginStage = 'second_factor' | 'enrol' | 'recovery_codes';

export interface LoginStep {
  uid: string;
  communityId: string;
  accountId: string;
  /** the factors passed so far (RFC 8176 values) */
  amr: string[];
  stage: LoginStage;
  /** a TOTP secret being enrolled, sealed */
  pendingSecret: string | null;
  failures: number;
}

interface Row {
  uid: string;
  community_id: string;
  account_id: string;
  amr: string[];
  stage: LoginStage;
  pending_secret_sealed: string | null;
  failures: number;
}

const toStep = (row: Row): LoginStep => ({
  uid: row.uid,
  communityId: row.community_id,
  accountId: row.account_id,
  amr: row.amr,
  stage: row.stage,
  pendingSecret: row.pending_secret_sealed,
  failures: row.failures,
});

export class LoginSteps {
  constructor(private readonly db: Knex) {}

  /** Starts (or starts again) the steps of interaction `uid`; they last as long as it does. */
  async begin(
    step: Pick<LoginStep, 'uid' | 'communityId' | 'accountId' | 'amr' | 'stage'>,
    expiresAt: Date,
  ): Promise<void> {
    await this.db(TABLE)
      .insert({
        uid: step.uid,
        community_id: step.communityId,
        account_id: step.accountId,
        amr: step.amr,
        stage: step.stage,
        pending_secret_sealed: null,
        failures: 0,
        expires_at: expiresAt,
      })
      .onConflict('uid')
      .merge();
  }

  async find(communityId: string, uid: string): Promise<LoginStep | undefined> {
    const row: Row | undefined = await this.db(TABLE)
      .where({ uid, community_id: communityId })
      .where('expires_at', '>', this.db.fn.now())
      .first();
    return row ? toStep(row) : undefined;
  }

  async update(
    step: LoginStep,
    change: Partial<Pick<LoginStep, 'stage' | 'amr' | 'pendingSecret'>>,
  ): Promise<void> {
    await this.db(TABLE)
      .where({ uid: step.uid })
      .update({
        ...(change.stage ? { stage: change.stage } : {}),
        ...(change.amr ? { amr: change.amr } : {}),
        ...(change.pendingSecret !== undefined
          ? { pending_secret_sealed: change.pendingSecret }
          : {}),
      });
  }

  /** Counts a wrong second factor; returns the failures so far. */
  async failed(step: LoginStep): Promise<number> {
    const [row] = (await this.db(TABLE)
      .where({ uid: step.uid })
      .increment('failures', 1)
      .returning('failures')) as { failures: number }[];
    return row?.failures ?? Number.POSITIVE_INFINITY;
  }

  async end(uid: string): Promise<void> {
    await this.db(TABLE).where({ uid }).delete();
  }

  async sweep(): Promise<number> {
    return this.db(TABLE).where('expires_at', '<', this.db.fn.now()).delete();
  }
}
