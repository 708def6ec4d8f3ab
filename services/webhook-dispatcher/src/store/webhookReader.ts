// Reads webhooks (with their opened credential and active signing secrets) for the dispatcher.
import {
  webhookSealContext,
  type QueryEntry,
  type WebhookApi,
  type WebhookCredential,
} from '@idv/contracts';
import type { Knex } from '@idv/db';
import type { Keyring } from '@idv/platform';
import type { Subscription } from '../domain/matchEvent.ts';

export interface DispatchWebhook extends Subscription {
  id: string;
  api: Omit<WebhookApi, 'credential'>;
  credential: WebhookCredential | undefined;
  successCodes: number[];
  retryCodes: number[];
  retryCount: number;
  ttl: number;
  /** the current secret first, then a rotated-out one during its grace period */
  secrets: string[];
}

interface Row {
  id: string;
  tenant_id: string;
  community_id: string;
  event_names: string[];
  disabled: boolean;
  query: QueryEntry[];
  criteria: 'ALL' | 'ANY';
  api: Omit<WebhookApi, 'credential'>;
  credential_sealed: string | null;
  success_codes: number[];
  retry_codes: number[];
  retry_count: number;
  ttl: number;
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_secret_until: Date | null;
}

const TABLE = 'webhooks.webhooks';

export class WebhookReader {
  constructor(
    private readonly db: Knex,
    private readonly keys: Keyring,
  ) {}

  private async toWebhook(row: Row): Promise<DispatchWebhook> {
    const secretContext = webhookSealContext.secret(row.id);
    const secrets = [await this.keys.open(row.secret_sealed, secretContext)];
    if (
      row.previous_secret_sealed &&
      row.previous_secret_until &&
      row.previous_secret_until > new Date()
    )
      secrets.push(await this.keys.open(row.previous_secret_sealed, secretContext));
    return {
      id: row.id,
      tenantId: row.tenant_id,
      communityId: row.community_id,
      eventNames: row.event_names,
      disabled: row.disabled,
      query: row.query,
      criteria: row.criteria,
      api: row.api,
      credential: row.credential_sealed
        ? (JSON.parse(
            await this.keys.open(row.credential_sealed, webhookSealContext.credential(row.id)),
          ) as WebhookCredential)
        : undefined,
      successCodes: row.success_codes,
      retryCodes: row.retry_codes,
      retryCount: row.retry_count,
      ttl: row.ttl,
      secrets,
    };
  }

  async ofCommunity(tenantId: string, communityId: string): Promise<DispatchWebhook[]> {
    const rows = (await this.db(TABLE).where({
      tenant_id: tenantId,
      community_id: communityId,
    })) as Row[];
    return Promise.all(rows.map((row) => this.toWebhook(row)));
  }

  async byId(id: string): Promise<DispatchWebhook | undefined> {
    const row = (await this.db(TABLE).where({ id }).first()) as Row | undefined;
    return row ? this.toWebhook(row) : undefined;
  }
}
