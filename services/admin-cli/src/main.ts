// Admin CLI: `npm run -s admin -- <noun> <verb> [--option value]...`, JSON on stdout.
import { ConfigError, loadConfig, PlatformConfig, resolveMasterKey } from '@idv/config';
import { createDatabase, ensureDatabaseExists } from '@idv/db';
import { DuplicateInPlatform, InvalidInPlatform, NotFoundInPlatform } from '@idv/platform';
import { migrateAll } from './migrateAll.ts';
import { AuditChainBroken } from './auditCommands.ts';
import { adminKeyring, commands, UsageError, type Options } from './commands.ts';

const USAGE = `usage: npm run -s admin -- <command> [options]
  tenant create --name N
  community create --tenant ID --name N
  community image-hosts --community ID --hosts HOST,*.DOMAIN,...  (--hosts "" removes the list)
  license create --level system|service|service_ext|community [--community ID]... [--expires ISO]
  community mfa --community NAME --policy off|optional|required [--factor totp|webauthn]...
  community login-limits --community NAME [--lock-after N] [--lock-minutes N] [--free-failures N]
    [--base-delay-seconds N] [--max-delay-seconds N] [--account-free-failures N]
    [--account-max-delay-seconds N] [--address-free-failures N] [--address-max-delay-seconds N]
    [--window-minutes N] | --defaults yes
  community branding --community NAME [--display-name N] [--accent-color #rrggbb] [--logo FILE]
    (--logo "" removes it; PNG, JPEG or WebP, at most 64 KiB)
  oauth-client create --community NAME --redirect-uri URI [--grant-type G]... [--name NAME]
    [--console yes]  (the operator console's client of OPERATORS_COMMUNITY: it alone gets roles)
  oauth-client name --community NAME --client-id ID --name NAME
  oauth-account create --community NAME --username U --password P|- [--name N]  (- reads it from stdin)
  operator create --username U --role reviewer|senior_reviewer|admin|auditor|viewer [--role R]...
    [--community ID]... [--password P|-]  (an account of OPERATORS_COMMUNITY; no --community: every
    community; a generated password when not given; a second factor is enrolled at first sign-in)
  oauth-account unlock --community NAME --username U  (login locks and delays of the account lifted)
  oauth-account reset-password --community NAME --username U [--password P|-]  (generated if not
    given; the account's sessions sign in again)
  oauth-account reset-factors --community NAME --username U  (second factors and recovery codes removed)
  oauth-account enrol-totp --community NAME --username U  (answers the TOTP secret, once)
  oauth-key rotate --community NAME
  oauth-idp set --community NAME --issuer URL --audience A --jwks-uri URL
  oauth-proof-key trust --community NAME --kid K --public-key BASE64
  ratelimit set --licence KEY_OR_ID|--community ID|--tenant ID|--images COMMUNITY_ID --rps N [--burst N]
      (burst default: rps; --images: the community's image budget, in MB of decoded pixels)
  ratelimit unset --licence KEY_OR_ID|--community ID|--tenant ID|--images COMMUNITY_ID  (back to the RATE_LIMIT_* defaults)
  ratelimit show [--licence KEY_OR_ID|--community ID|--tenant ID|--images COMMUNITY_ID]
  servicekey show --service oauth|docverify|webhooks
  servicekey end-grace --service oauth|docverify|webhooks  (previous keys refused from now on)
  keypair create
  master-key rotate [--key-id ID]  (a new key-encryption key, or one the provider holds already, made
    current; every data key re-wrapped under it, progress on stderr)
  master-key rewrap  (data keys still under an older key re-wrapped under the current one)
  master-key migrate  (values sealed under MASTER_KEY alone moved under data keys; every migrate runs it)
  master-key status
  master-key retire --key-id ID  (refused while anything is still under it)
  audit verify  (the audit log's hash chain checked: {ok, entries, head}; exit 1 when broken)`;

/** `noun verb --key value --key=value ...`; a repeated option collects every value. */
function parseOptions(args: string[]): { words: string[]; options: Options } {
  const words: string[] = [];
  const options: Options = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (!arg.startsWith('--')) {
      words.push(arg);
      continue;
    }
    const [key, inline] = arg.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
    const value = inline ?? args[++i];
    if (value === undefined || (inline === undefined && value.startsWith('--')))
      fail(2, `--${key} needs a value`);
    (options[key] ??= []).push(value);
  }
  return { words, options };
}

function fail(code: number, message: string): never {
  console.error(JSON.stringify({ error: message }));
  process.exit(code);
}

async function main(): Promise<void> {
  const { words, options } = parseOptions(process.argv.slice(2));
  const name = words.join(' ');
  const command = commands[name];
  if (!command) fail(2, `unknown command "${name}"\n${USAGE}`);

  const config = loadConfig(PlatformConfig);
  const master = resolveMasterKey(config, (line) => console.error(line));
  await ensureDatabaseExists(config.DATABASE_URL);
  const db = createDatabase({ url: config.DATABASE_URL, applicationName: 'idv-admin' });
  try {
    await migrateAll(db);
    let keys: ReturnType<typeof adminKeyring> | undefined;
    const keyring = async () => (await (keys ??= adminKeyring(db, master, config))).keyring;
    try {
      const result = await command({ db, master, keyring }, options);
      console.log(JSON.stringify(result));
    } finally {
      if (keys) (await keys).close();
    }
  } finally {
    await db.destroy();
  }
}

main().catch((err: unknown) => {
  // a broken chain: the pinned answer on stdout all the same, the refusal on stderr, exit 1
  if (err instanceof AuditChainBroken) console.log(JSON.stringify(err.verdict));
  if (err instanceof AuditChainBroken) fail(1, err.message);
  if (err instanceof UsageError) fail(2, err.message);
  if (
    err instanceof ConfigError ||
    err instanceof NotFoundInPlatform ||
    err instanceof DuplicateInPlatform ||
    err instanceof InvalidInPlatform
  ) {
    fail(1, err.message);
  }
  fail(1, err instanceof Error ? err.message : String(err));
});
