// The list of connector types and the contract files beside it agree: every file is listed, every
// listed type has its file, and each contract is usable by the gateway, the worker and infra/.
import { readdirSync } from 'node:fs';
import { expect } from 'chai';
import {
  CONFIG_ARRAYS,
  CONNECTORS,
  CONNECTOR_TYPES,
  VERIFICATION_KINDS,
  validate,
  type ConnectorContract,
} from '../index.ts';

const folder = new URL('../connectors/types/', import.meta.url);
const files = readdirSync(folder).filter((file) => file.endsWith('.ts') && file !== 'index.ts');

describe('contracts: the list of connector types', () => {
  it('lists each contract file of connectors/types once, and nothing else', () => {
    expect(files.map((file) => file.replace(/\.ts$/, ''))).to.have.members([...CONNECTOR_TYPES]);
    expect(new Set(CONNECTOR_TYPES).size).to.equal(CONNECTORS.length);
  });

  for (const file of files) {
    it(`${file} declares the type of its name`, async () => {
      const module = (await import(new URL(file, folder).href)) as Record<string, unknown>;
      const name = file.replace(/\.ts$/, '');
      expect((module[name] as ConnectorContract | undefined)?.type).to.equal(name);
    });
  }

  for (const contract of CONNECTORS as readonly ConnectorContract[]) {
    const { type } = contract;
    it(`${type}: a name queues, compose services and pods can carry`, () => {
      // infra/rabbitmq's delivery-limit policy matches ^idv\.connector\.[a-z_]+$; Kubernetes
      // names the pods with - for _, and a name may not end in -
      expect(type).to.match(/^[a-z][a-z_]{0,40}[a-z]$/);
    });

    it(`${type}: serves at least one kind, each once, and only known config arrays`, () => {
      expect(contract.kinds.length).to.be.greaterThan(0);
      expect(new Set(contract.kinds).size).to.equal(contract.kinds.length);
      expect(VERIFICATION_KINDS).to.include.members([...contract.kinds]);
      expect(CONFIG_ARRAYS).to.include.members([...(contract.configArrays ?? [])]);
    });

    it(`${type}: its config takes {} or refuses only the members it requires`, () => {
      const result = validate(contract.config, {});
      const required = (contract.config.required ?? []) as string[];
      if (result.ok) return expect(required).to.deep.equal([]);
      expect(result.issues.map((i) => i.message).join('; ')).to.match(/required/);
      expect(required.length).to.be.greaterThan(0);
    });

    it(`${type}: a deployment profile infra/ can render`, () => {
      expect(contract.deployment.compute).to.be.oneOf(['io', 'cpu']);
      const backlog = contract.deployment.backlogPerReplica ?? 10;
      expect(Number.isInteger(backlog) && backlog > 0).to.equal(true);
    });
  }
});
