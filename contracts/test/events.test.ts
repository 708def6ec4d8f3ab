// The event contracts: the envelope's origin, the strict intake catalog, who emits each event (in
// step with the services' sources), and the depth bound every validated value is held to.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Type } from '@sinclair/typebox';
import { expect } from 'chai';
import {
  EVENT_CATALOG,
  EVENT_EMITTERS,
  EventEnvelope,
  INTAKE_CATALOG,
  MAX_JSON_DEPTH,
  validate,
  type EventName,
} from '../index.ts';

const nested = (depth: number): unknown => {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
};

function sourcesOf(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return sourcesOf(path);
    return path.endsWith('.ts') ? [readFileSync(path, 'utf8')] : [];
  });
}

describe('contracts: events', () => {
  const envelope = {
    eventId: 'e-1',
    eventName: 'E_IDV_DOCUMENT_VALIDATE',
    version: 1,
    tenantId: 't',
    communityId: 'c',
    ts: 0,
    data: { dvcID: 'kyc', docType: 'dl', status: 'verified' },
  };

  it('fills origin "platform" into an envelope without one, keeps "intake", refuses others', () => {
    const filled = { ...envelope };
    expect(validate(EventEnvelope, filled).ok).to.equal(true);
    expect(filled).to.have.property('origin', 'platform');
    expect(validate(EventEnvelope, { ...envelope, origin: 'intake' }).ok).to.equal(true);
    expect(validate(EventEnvelope, { ...envelope, origin: 'anyone' }).ok).to.equal(false);
  });

  it('holds intake data to the declared members; the catalog itself stays open', () => {
    const data = { reason: 'invalid_credentials', email: 'testy@example.test' };
    expect(validate(EVENT_CATALOG.E_OAUTH_LOGIN_FAILED, data).ok).to.equal(true);
    const strict = validate(INTAKE_CATALOG.E_OAUTH_LOGIN_FAILED, data);
    expect(strict.ok).to.equal(false);
    expect(JSON.stringify(strict)).to.contain('email');
    expect(validate(INTAKE_CATALOG.E_OAUTH_LOGIN_FAILED, { reason: 'x' }).ok).to.equal(true);
  });

  it('names the emitter of every event the services publish, and only of those', () => {
    const services: Record<string, 'docverify' | 'oauth'> = {
      'services/docverify-gateway/src': 'docverify',
      'services/oauth/src': 'oauth',
    };
    const found: Record<string, string[]> = {};
    for (const [folder, emitter] of Object.entries(services)) {
      const text = sourcesOf(new URL(`../../${folder}`, import.meta.url).pathname).join('\n');
      const names = new Set([...text.matchAll(/'(E_[A-Z0-9_]+)'/g)].map((m) => m[1]!));
      found[emitter] = [...names].sort();
    }
    const declared = (emitter: string) =>
      (Object.keys(EVENT_EMITTERS) as EventName[])
        .filter((name) => EVENT_EMITTERS[name] === emitter)
        .sort();
    expect(found.docverify).to.deep.equal(declared('docverify'));
    expect(found.oauth).to.deep.equal(declared('oauth'));
    expect(Object.keys(EVENT_EMITTERS).sort()).to.deep.equal(Object.keys(EVENT_CATALOG).sort());
  });

  it(`refuses values nested deeper than ${MAX_JSON_DEPTH} levels, naming where, without recursing`, () => {
    const open = Type.Record(Type.String(), Type.Unknown());
    expect(validate(open, nested(MAX_JSON_DEPTH)).ok).to.equal(true);
    const deeper = validate(open, nested(MAX_JSON_DEPTH + 1));
    expect(deeper).to.deep.equal({
      ok: false,
      issues: [
        {
          path: '/a'.repeat(MAX_JSON_DEPTH),
          message: `nests deeper than ${MAX_JSON_DEPTH} levels of arrays and objects`,
        },
      ],
    });
    // JSON.parse builds these without recursing; JSON.stringify of them throws RangeError
    const huge = JSON.parse('['.repeat(200_000) + ']'.repeat(200_000)) as unknown;
    expect(() => JSON.stringify(huge)).to.throw(RangeError);
    expect(validate(open, { x: huge }).ok).to.equal(false);
    // ajv's uniqueItems compares unknown items with a recursive deep equality
    const unique = Type.Array(Type.Unknown(), { uniqueItems: true });
    const twin = JSON.parse('['.repeat(200_000) + ']'.repeat(200_000)) as unknown;
    expect(validate(unique, [huge, twin]).ok).to.equal(false);
  });
});
