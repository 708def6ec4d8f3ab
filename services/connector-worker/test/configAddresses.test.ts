// Issue 14, finding 1, the class: only the members declared addresses in CONFIG_MEMBER_ROLES (and
// connectorUrl) decide where a provider request goes. Each other free-text member, set alone to a
// trap's URL, must bring no request to the trap, for every kind of every type; the declared
// addresses, set to it, must.
import { expect } from 'chai';
import {
  CONFIG_BY_CONNECTOR,
  CONFIG_MEMBER_ROLES,
  KINDS_BY_CONNECTOR,
  type ConnectorType,
} from '@idv/contracts';
import { startSink, type Sink } from '@idv/testing/webhookSink';
import { dlVerifyLicence, image } from '@idv/testing/connectors/fixtures';
import { testKits } from '@idv/testing/connectors/kit';
import { startHarness, type Harness } from './harness.ts';

interface Schema {
  type?: string;
  format?: string;
  pattern?: string;
  const?: unknown;
  enum?: unknown[];
  anyOf?: unknown[];
  properties?: Record<string, Schema>;
  items?: Schema;
}

const document = {
  id: 'doc-1',
  type: 'dl',
  ...dlVerifyLicence,
  ssn: '000-00-0000',
  front_image: image('DOC:testy'),
  image1: image('FACE:testy'),
  image2: image('FACE:testy'),
  liveId: image('LIVE'),
  image: image('DOC:testy'),
};

/** A working config per type for every kind of it, from its kit; types calling no one have none. */
const BASE = new Map(
  (await testKits()).flatMap((kit) =>
    kit.configForEveryKind ? [[kit.type, kit.configForEveryKind] as const] : [],
  ),
);
/** Role paths ('accounts/*\/url') of every string member that takes any text. */
function freeText(schema: Schema, prefix = ''): string[] {
  if (schema.type === 'array' && schema.items) return freeText(schema.items, `${prefix}*/`);
  if (schema.type === 'object' && schema.properties) {
    return Object.entries(schema.properties).flatMap(([name, s]) =>
      freeText(s, `${prefix}${name}/`),
    );
  }
  const constrained = schema.format || schema.pattern || schema.const || schema.enum;
  return schema.type === 'string' && !constrained ? [prefix.replace(/\/$/, '')] : [];
}

/** A copy of `config` with `value` at every place `path` names (array items that exist). */
function withValue(config: Record<string, unknown>, path: string, value: string) {
  const copy = JSON.parse(JSON.stringify(config)) as Record<string, unknown>;
  const visit = (node: unknown, parts: string[]): void => {
    const [head, ...rest] = parts;
    if (head === undefined || !node || typeof node !== 'object') return;
    if (head === '*') return (node as unknown[]).forEach((item) => visit(item, rest));
    const record = node as Record<string, unknown>;
    if (rest.length === 0) record[head] = value;
    else visit(record[head], rest);
  };
  visit(copy, path.split('/'));
  return copy;
}

describe('connector worker: only declared addresses steer a request', function () {
  this.timeout(120_000);
  let h: Harness;
  let trap: Sink;
  const types = [...BASE.keys()];

  before(async () => {
    h = await startHarness();
    trap = await startSink();
    await Promise.all(types.map((type) => h.startWorker(type)));
  });
  after(async () => {
    await trap?.close();
    await h?.stop();
  });

  const askEveryKind = async (
    type: ConnectorType,
    config: Record<string, unknown>,
    connectorUrl = h.sandbox.url,
  ) => {
    for (const kind of KINDS_BY_CONNECTOR[type]) {
      const reply = await h.ask({ type, kind, config, document, connectorUrl });
      // a config the worker refuses would prove nothing
      expect(reply.error?.code, `${type} ${kind}`).not.to.equal('invalid_config');
    }
  };

  for (const type of types) {
    const members = freeText(CONFIG_BY_CONNECTOR[type] as Schema).filter(
      (path) => !CONFIG_MEMBER_ROLES[type].addresses.includes(path),
    );
    for (const member of members) {
      it(`${type}: ${member} set to a URL steers no request there`, async () => {
        trap.received.length = 0;
        const config = withValue(BASE.get(type)!(h.sandbox.url), member, `${trap.url}/steered`);
        await askEveryKind(type, config);
        expect(trap.received.map((r) => r.path)).to.deep.equal([]);
      });
    }

    it(`${type}: the declared addresses and connectorUrl, set to a URL, are where requests go`, async () => {
      trap.received.length = 0;
      const config = CONFIG_MEMBER_ROLES[type].addresses.reduce(
        (c, path) => withValue(c, path, `${trap.url}/address`),
        BASE.get(type)!(h.sandbox.url),
      );
      await askEveryKind(type, config, trap.url);
      expect(trap.received.length).to.be.greaterThan(0);
    });
  }
});
