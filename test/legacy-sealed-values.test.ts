// Values sealed under MASTER_KEY alone, as the platform stored them before envelopes (mk1:), moved
// under data keys by `npm run migrate` as operators run it (a real process), on every sealed column
// of the platform: afterwards each service still reads its own (a verifier's config, a webhook's
// secret and credential, an OAuth client's secret, the service keys) through its own API, and
// `master-key status` counts none left under MASTER_KEY alone.
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { IdvClient } from '@idv/client';
import { createSecretBox } from '@idv/crypto';
import { countLegacyValues } from '@idv/platform';
import { createOauthClient } from '../services/oauth/src/admin.ts';
import { SEALED_COLUMNS } from '../services/admin-cli/src/sealedColumns.ts';
import { platformKeyring, startPlatform, type RunningPlatform } from '@idv/testing/platform';

const run = promisify(execFile);
const MIGRATE = new URL('../services/admin-cli/src/migrate.ts', import.meta.url).pathname;

describe('values sealed before envelopes: moved under data keys by npm run migrate', function () {
  this.timeout(120_000);
  let platform: RunningPlatform;
  before(async () => {
    platform = await startPlatform();
  });
  after(async () => platform?.stop());

  /** Every sealed value of the database sealed again under MASTER_KEY alone, as before envelopes. */
  async function backToMk1(): Promise<number> {
    const { db } = platform.database;
    const keyring = platformKeyring(platform);
    const legacy = createSecretBox(Buffer.from(platform.env.MASTER_KEY!, 'base64'));
    let count = 0;
    for (const column of SEALED_COLUMNS) {
      const rows = await db(column.table).whereNotNull(column.column);
      for (const row of rows) {
        const context = column.context(row);
        const old = column.bytes
          ? legacy.sealBytes(await keyring.openBytes(row[column.column], context), context)
          : legacy.seal(await keyring.open(row[column.column], context), context);
        const where = Object.fromEntries(column.key.map((name) => [name, row[name]]));
        await db(column.table)
          .where(where)
          .update({ [column.column]: old });
        count += 1;
      }
    }
    return count;
  }

  it('moves every column, and each service reads its values through its API afterwards', async () => {
    const { community } = platform;
    const docverify = new IdvClient({
      baseUrl: platform.services.docverify.url,
      licenseKey: platform.licences.service,
    });
    const webhooks = new IdvClient({
      baseUrl: platform.services.webhooks.url,
      licenseKey: platform.licences.service,
    });
    const verifier = await docverify.request<{ tag: string }>(
      'PUT',
      `/verifier/community/${community.id}`,
      {
        name: 'Legacy verifier',
        tag: 'legacy-v',
        type: 'identity_data',
        connectorUrl: 'http://127.0.0.1:9/identity',
        config: { apiKey: 'legacy-api-key' },
      },
    );
    expect(verifier.status, JSON.stringify(verifier.body)).to.equal(200);
    const webhookPath = `/tenant/${community.tenantId}/community/${community.id}/webhook`;
    const webhook = await webhooks.request<{ _id: string }>('PUT', webhookPath, {
      name: 'Legacy callbacks',
      eventNames: ['E_IDV_DOCUMENT_VALIDATE'],
      successCodes: [200],
      api: {
        type: 'POST',
        url: 'http://127.0.0.1:9/hook',
        authType: 'basic',
        credential: { username: 'legacy', password: 'legacy-password' },
      },
    });
    expect(webhook.status, JSON.stringify(webhook.body)).to.equal(200);
    const client = await createOauthClient(
      { db: platform.database.db, keyring: platformKeyring(platform) },
      { community: community.name, redirectUris: [], grantTypes: ['client_credentials'] },
    );

    const sealed = await backToMk1();
    expect(sealed).to.be.at.least(5);
    expect(await countLegacyValues(platform.database.db, SEALED_COLUMNS)).to.equal(sealed);

    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', MIGRATE], {
      env: { ...process.env, ...platform.env },
    });
    expect(JSON.parse(stdout)).to.deep.include({ resealed: sealed });
    expect(stderr).to.contain('"resealed"');
    expect(await countLegacyValues(platform.database.db, SEALED_COLUMNS)).to.equal(0);

    // each service opens its own values again (the caches of the running services are fresh ones)
    const read = await docverify.request<{ config: Record<string, unknown> }>(
      'GET',
      `/verifier/community/${community.id}/legacy-v`,
    );
    expect(read.status, JSON.stringify(read.body)).to.equal(200);
    const hook = await webhooks.request('GET', `${webhookPath}/${webhook.body._id}`);
    expect(hook.status, JSON.stringify(hook.body)).to.not.be.oneOf([500, 404]);
    const token = await fetch(
      `${platform.services.oauth.url}/community/${community.name}/v1/token`,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from(`${client.client_id}:${client.client_secret}`).toString('base64')}`,
        },
        body: 'grant_type=client_credentials',
      },
    );
    expect(token.status, await token.clone().text()).to.equal(200);
    // a second run finds nothing left
    const again = await run(process.execPath, ['--import', 'tsx', MIGRATE], {
      env: { ...process.env, ...platform.env },
    });
    expect(JSON.parse(again.stdout)).to.deep.include({ resealed: 0 });
  });
});
