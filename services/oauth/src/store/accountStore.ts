// End-user accounts per community for the login page; passwords hashed with scrypt.
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { conflictOnDuplicate, type Knex } from '@idv/db';
import { holdsNul } from './storableText.ts';

const TABLE = 'oauth.accounts';
const PARAMS = { N: 16384, r: 8, p: 1 };
/** account_id is a uuid column: anything else (a proof's sub may be any text) is no account */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface Account {
  accountId: string;
  username: string;
  displayName: string | null;
  /**
   * sessions authenticated before this sign in again (a password or factor reset); null: no
   * change since the account was made
   */
  credentialsChangedAt: Date | null;
  /** when the person last chose "not now" to adding a second factor */
  mfaOfferSkippedAt: Date | null;
}

interface AccountRow {
  account_id: string;
  username: string;
  password_hash: string;
  display_name: string | null;
  credentials_changed_at: Date;
  mfa_offer_skipped_at: Date | null;
  created_at: Date;
}

const COLUMNS = [
  'account_id',
  'username',
  'display_name',
  'password_hash',
  'credentials_changed_at',
  'mfa_offer_skipped_at',
  'created_at',
];

function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password, salt, 32, { ...options, maxmem: 64 * 1024 * 1024 }, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, PARAMS);
  const { N, r, p } = PARAMS;
  return ['scrypt', N, r, p, salt.toString('base64'), key.toString('base64')].join('$');
}

export async function passwordMatches(password: string, stored: string): Promise<boolean> {
  const [scheme, N, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const key = await derive(password, Buffer.from(salt, 'base64'), {
    N: Number(N),
    r: Number(r),
    p: Number(p),
  });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

const toAccount = (row: AccountRow): Account => ({
  accountId: row.account_id,
  username: row.username,
  displayName: row.display_name,
  // a new account's column says when it was made (its default): that is no change
  credentialsChangedAt:
    row.credentials_changed_at > row.created_at ? row.credentials_changed_at : null,
  mfaOfferSkippedAt: row.mfa_offer_skipped_at,
});

export class AccountStore {
  /** compared against when the username is unknown, so timing does not reveal which exist */
  private decoy: Promise<string> | undefined;

  constructor(private readonly db: Knex) {}

  async create(
    communityId: string,
    username: string,
    password: string,
    displayName?: string,
  ): Promise<Account> {
    const passwordHash = await hashPassword(password);
    const [row]: AccountRow[] = await conflictOnDuplicate(
      () =>
        this.db(TABLE)
          .insert({
            community_id: communityId,
            username,
            password_hash: passwordHash,
            display_name: displayName ?? null,
          })
          .returning(COLUMNS),
      `account ${username} exists already`,
    );
    if (!row) throw new Error('account insert returned nothing');
    return toAccount(row);
  }

  async authenticate(
    communityId: string,
    username: string,
    password: string,
  ): Promise<Account | undefined> {
    const row: AccountRow | undefined = holdsNul(username)
      ? undefined
      : await this.db(TABLE).where({ community_id: communityId, username }).first(COLUMNS);
    const ok = await passwordMatches(
      password,
      row?.password_hash ?? (await (this.decoy ??= hashPassword(randomBytes(16).toString('hex')))),
    );
    return row && ok ? toAccount(row) : undefined;
  }

  /** undefined for an id that is no account of the community, including one not a uuid. */
  async find(communityId: string, accountId: string): Promise<Account | undefined> {
    if (!UUID.test(accountId)) return undefined;
    const row: AccountRow | undefined = await this.db(TABLE)
      .where({ community_id: communityId, account_id: accountId })
      .first(COLUMNS);
    return row ? toAccount(row) : undefined;
  }

  async findByUsername(communityId: string, username: string): Promise<Account | undefined> {
    if (holdsNul(username)) return undefined;
    const row: AccountRow | undefined = await this.db(TABLE)
      .where({ community_id: communityId, username })
      .first(COLUMNS);
    return row ? toAccount(row) : undefined;
  }

  /** The person chose "not now" to adding a second factor (an optional policy asks again later). */
  async skipMfaOffer(communityId: string, accountId: string): Promise<void> {
    await this.db(TABLE)
      .where({ community_id: communityId, account_id: accountId })
      .update({ mfa_offer_skipped_at: this.db.fn.now() });
  }

  /** Ends every session of the account made before now: each signs in again. */
  async credentialsChanged(communityId: string, accountId: string, trx?: Knex): Promise<void> {
    await (trx ?? this.db)(TABLE)
      .where({ community_id: communityId, account_id: accountId })
      .update({ credentials_changed_at: this.db.fn.now() });
  }

  /** A new password (the admin CLI's recovery); the account's sessions sign in again. */
  async setPassword(
    communityId: string,
    accountId: string,
    password: string,
    trx?: Knex,
  ): Promise<void> {
    await (trx ?? this.db)(TABLE)
      .where({ community_id: communityId, account_id: accountId })
      .update({
        password_hash: await hashPassword(password),
        credentials_changed_at: this.db.fn.now(),
      });
  }
}
