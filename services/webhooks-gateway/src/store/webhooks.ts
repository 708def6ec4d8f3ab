// Webhook rows: the credential and the signing secrets sealed at rest; changes NOTIFY the dispatcher.
import { randomUUID } from 'node:crypto';
import {
  WEBHOOK_CHANGED_CHANNEL,
  webhookSealContext,
  type QueryEntry,
  type WebhookApi,
  type WebhookCreate,
  type WebhookCredential,
  type WebhookPatch,
} from '@idv/contracts';
import { generateWebhookSecret } from '@idv/crypto';
import type { Knex } from '@idv/db';
import { UUID, type Keyring, type KeyOwner, type SealedColumn } from '@idv/platform';

export interface WebhookRecord {
  id: string;
  tenantId: string;
  communityId: string;
  name: string;
  eventNames: string[];
  disabled: boolean;
  createdBy: string;
  tags: string[];
  query: QueryEntry[];
  criteria: 'ALL' | 'ANY';
  api: WebhookApi;
  successCodes: number[];
  retryCodes: number[];
  retryCount: number;
  ttl: number;
  secret: string;
  createdAt: Date;
  updatedAt: Date;
}

interface Row {
  id: string;
  tenant_id: string;
  community_id: string;
  name: string;
  event_names: string[];
  disabled: boolean;
  created_by: string;
  tags: string[];
  query: QueryEntry[];
  criteria: 'ALL' | 'ANY';
  api: WebhookApi;
  credential_sealed: string | null;
  success_codes: number[];
  retry_codes: number[];
  retry_count: number;
  ttl: number;
  secret_sealed: string;
  created_at: Date;
  updated_at: Date;
}

const TABLE = 'webhooks.webhooks';
/** whose data key seals a webhook's secrets and credential (destroyed with it) */
const webhookKeyOwner = (id: string): KeyOwner => ({ kind: 'webhook', id });

export interface Scope {
  tenantId: string;
  communityId: string;
}

export class WebhookStore {
  constructor(
    private readonly db: Knex,
    private readonly keys: Keyring,
    /** how long a rotated-out secret keeps signing */
    private readonly rotationGraceSeconds: number,
  ) {}

  /** `trx`: the transaction the row was written in (its data key may be new there). */
  private async toRecord(row: Row, trx?: Knex): Promise<WebhookRecord> {
    const api: WebhookApi = { ...row.api };
    if (row.credential_sealed)
      api.credential = JSON.parse(
        await this.keys.open(row.credential_sealed, webhookSealContext.credential(row.id), trx),
      ) as WebhookCredential;
    return {
      id: row.id,
      tenantId: row.tenant_id,
      communityId: row.community_id,
      name: row.name,
      eventNames: row.event_names,
      disabled: row.disabled,
      createdBy: row.created_by,
      tags: row.tags,
      query: row.query,
      criteria: row.criteria,
      api,
      successCodes: row.success_codes,
      retryCodes: row.retry_codes,
      retryCount: row.retry_count,
      ttl: row.ttl,
      secret: await this.keys.open(row.secret_sealed, webhookSealContext.secret(row.id), trx),
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    };
  }

  private async apiColumns(
    id: string,
    api: WebhookApi,
    trx: Knex,
  ): Promise<Pick<Row, 'api' | 'credential_sealed'>> {
    const { credential, ...rest } = api;
    return {
      api: rest,
      credential_sealed: credential
        ? await this.keys.sealFor(
            webhookKeyOwner(id),
            JSON.stringify(credential),
            webhookSealContext.credential(id),
            trx,
          )
        : null,
    };
  }

  /** Delivered on commit, so the dispatcher never re-reads a change that is not yet visible. */
  private notify(trx: Knex, record: { id: string; communityId: string }): Promise<unknown> {
    const payload = JSON.stringify({ id: record.id, communityId: record.communityId });
    return trx.raw('SELECT pg_notify(?, ?)', [WEBHOOK_CHANGED_CHANNEL, payload]);
  }

  async create(scope: Scope, input: WebhookCreate & { createdBy: string }): Promise<WebhookRecord> {
    const id = randomUUID();
    const row = {
      id,
      tenant_id: scope.tenantId,
      community_id: scope.communityId,
      name: input.name,
      event_names: input.eventNames,
      disabled: input.disabled ?? false,
      created_by: input.createdBy,
      tags: input.tags ?? [],
      query: JSON.stringify(input.query ?? []),
      criteria: input.criteria ?? 'ALL',
      success_codes: input.successCodes,
      retry_codes: input.retryCodes ?? [],
      retry_count: input.retryCount ?? 0,
      ttl: input.ttl ?? 0,
    };
    return this.db.transaction(async (trx) => {
      const sealed = {
        ...(await this.apiColumns(id, input.api, trx)),
        secret_sealed: await this.keys.sealFor(
          webhookKeyOwner(id),
          generateWebhookSecret(),
          webhookSealContext.secret(id),
          trx,
        ),
      };
      const [created] = await trx(TABLE)
        .insert({ ...row, ...sealed })
        .returning('*');
      await this.notify(trx, { id, communityId: scope.communityId });
      return this.toRecord(created as Row, trx);
    });
  }

  async find(scope: Scope, id: string): Promise<WebhookRecord | undefined> {
    if (!UUID.test(id)) return undefined;
    const row = (await this.db(TABLE)
      .where({ id, tenant_id: scope.tenantId, community_id: scope.communityId })
      .first()) as Row | undefined;
    return row ? this.toRecord(row) : undefined;
  }

  /** One page ordered by creation; tags: webhooks carrying at least one of them. */
  async page(
    scope: Scope,
    options: { index: number; size: number; tags?: string[] | undefined },
  ): Promise<{ total: number; records: WebhookRecord[] }> {
    const filtered = () => {
      const q = this.db(TABLE).where({
        tenant_id: scope.tenantId,
        community_id: scope.communityId,
      });
      return options.tags?.length ? q.whereRaw('tags && ?::text[]', [options.tags]) : q;
    };
    const [{ count } = { count: 0 }] = (await filtered().count({ count: '*' })) as {
      count: string | number;
    }[];
    const rows = (await filtered()
      .orderBy([{ column: 'created_at' }, { column: 'id' }])
      .offset(options.index * options.size)
      .limit(options.size)) as Row[];
    return {
      total: Number(count),
      records: await Promise.all(rows.map((row) => this.toRecord(row))),
    };
  }

  async update(current: WebhookRecord, changes: WebhookPatch): Promise<WebhookRecord> {
    const patch: Record<string, unknown> = { updated_at: this.db.fn.now() };
    if (changes.name !== undefined) patch.name = changes.name;
    if (changes.disabled !== undefined) patch.disabled = changes.disabled;
    if (changes.eventNames !== undefined) patch.event_names = changes.eventNames;
    if (changes.tags !== undefined) patch.tags = changes.tags;
    if (changes.query !== undefined) patch.query = JSON.stringify(changes.query);
    if (changes.criteria !== undefined) patch.criteria = changes.criteria;
    if (changes.successCodes !== undefined) patch.success_codes = changes.successCodes;
    if (changes.retryCodes !== undefined) patch.retry_codes = changes.retryCodes;
    if (changes.retryCount !== undefined) patch.retry_count = changes.retryCount;
    if (changes.ttl !== undefined) patch.ttl = changes.ttl;
    return this.db.transaction(async (trx) => {
      if (changes.api !== undefined)
        Object.assign(patch, await this.apiColumns(current.id, changes.api, trx));
      if (changes.rotateSecret) {
        const context = webhookSealContext.secret(current.id);
        const seal = (secret: string) =>
          this.keys.sealFor(webhookKeyOwner(current.id), secret, context, trx);
        patch.previous_secret_sealed = await seal(current.secret);
        patch.previous_secret_until = new Date(Date.now() + this.rotationGraceSeconds * 1000);
        patch.secret_sealed = await seal(generateWebhookSecret());
      }
      const [row] = await trx(TABLE).where({ id: current.id }).update(patch).returning('*');
      await this.notify(trx, current);
      return this.toRecord(row as Row, trx);
    });
  }

  async delete(current: WebhookRecord): Promise<void> {
    await this.db.transaction(async (trx) => {
      await trx(TABLE).where({ id: current.id }).delete();
      await this.keys.destroy(webhookKeyOwner(current.id), trx);
      await this.notify(trx, current);
    });
  }
}

/** The sealed columns of webhooks (legacySealed.ts). */
export const WEBHOOK_SEALED: SealedColumn[] = [
  {
    table: TABLE,
    column: 'credential_sealed',
    key: ['id'],
    owner: (row) => webhookKeyOwner(String(row.id)),
    context: (row) => webhookSealContext.credential(String(row.id)),
  },
  {
    table: TABLE,
    column: 'secret_sealed',
    key: ['id'],
    owner: (row) => webhookKeyOwner(String(row.id)),
    context: (row) => webhookSealContext.secret(String(row.id)),
  },
  {
    table: TABLE,
    column: 'previous_secret_sealed',
    key: ['id'],
    owner: (row) => webhookKeyOwner(String(row.id)),
    context: (row) => webhookSealContext.secret(String(row.id)),
  },
];
