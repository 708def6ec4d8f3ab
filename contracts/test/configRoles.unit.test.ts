// The roles of verifier config members (secrets, addresses) match the config schemas: every member
// that can hold a URL is an address, every declared path exists; certPath is a plain file name.
import { expect } from 'chai';
import {
  CONFIG_BY_CONNECTOR,
  CONFIG_MEMBER_ROLES,
  CONNECTOR_TYPES,
  SECRET_CONFIG_FIELDS,
  validate,
} from '../index.ts';

interface Schema {
  type?: string;
  format?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
}

/** Every leaf member of a config schema as a role path ('accounts/*\/url'), with its schema. */
function leaves(schema: Schema, prefix = ''): [string, Schema][] {
  if (schema.type === 'array' && schema.items) return leaves(schema.items, `${prefix}*/`);
  if (schema.type === 'object' && schema.properties) {
    return Object.entries(schema.properties).flatMap(([name, member]) =>
      leaves(member, `${prefix}${name}/`),
    );
  }
  return [[prefix.replace(/\/$/, ''), schema]];
}

describe('contracts: roles of verifier config members', () => {
  for (const type of CONNECTOR_TYPES) {
    const members = new Map(leaves(CONFIG_BY_CONNECTOR[type] as Schema));
    const roles = CONFIG_MEMBER_ROLES[type];

    it(`${type}: every URI member is an address, and every address a URI member`, () => {
      const uris = [...members].filter(([, s]) => s.format === 'uri').map(([path]) => path);
      expect([...roles.addresses].sort()).to.deep.equal(uris.sort());
    });

    it(`${type}: every secret is a string member of the schema`, () => {
      for (const path of roles.secrets) expect(members.get(path)?.type, path).to.equal('string');
    });

    it(`${type}: every member named like a secret is declared a secret`, () => {
      const named = [...members.keys()].filter((path) =>
        SECRET_CONFIG_FIELDS.has(path.split('/').at(-1)!),
      );
      expect([...roles.secrets].sort()).to.deep.equal(named.sort());
    });
  }

  it('masks by the names of every declared secret', () => {
    expect([...SECRET_CONFIG_FIELDS].sort()).to.include.members([
      'apiKey',
      'awsSecretKey',
      'clientSecret',
      'passphrase',
    ]);
  });

  const certPaths: [string, boolean][] = [
    ['registry-client.p12', true],
    ['tenant_a.pfx', true],
    ['/etc/idv/master.key', false],
    ['../master.key', false],
    ['..', false],
    ['.hidden', false],
    ['certs/client.p12', false],
    ['certs\\client.p12', false],
    ['/dev/zero', false],
    ['', false],
    ['a'.repeat(129), false],
  ];
  for (const [certPath, ok] of certPaths) {
    it(`license_registry certPath ${JSON.stringify(certPath.slice(0, 40))}: ${ok ? 'accepted' : 'refused'}`, () => {
      const result = validate(CONFIG_BY_CONNECTOR.license_registry, { certPath });
      expect(result.ok).to.equal(ok);
      if (!result.ok) expect(result.issues.map((i) => i.path)).to.deep.equal(['/certPath']);
    });
  }
});
