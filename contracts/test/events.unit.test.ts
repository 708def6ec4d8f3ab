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
  eventEnvelope,
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

  it('builds an envelope one way: fresh eventId, version 1, the scope, ts now unless given', () => {
    const scope = { tenantId: 't-1', communityId: 'c-1', ignored: 'not copied' };
    const before = Date.now();
    const built = eventEnvelope('E_IDV_VERIFIER_CHANGED', scope, { change: 'created' });
    expect(built).to.deep.include({
      eventName: 'E_IDV_VERIFIER_CHANGED',
      version: 1,
      tenantId: 't-1',
      communityId: 'c-1',
      data: { change: 'created' },
    });
    expect(built).to.not.have.property('ignored');
    expect(built).to.not.have.property('origin');
    expect(built.ts).to.be.within(before, Date.now());
    expect(built.eventId).to.match(/^[0-9a-f-]{36}$/);
    expect(eventEnvelope('E_IDV_VERIFIER_CHANGED', scope, {}).eventId).to.not.equal(built.eventId);
    expect(validate(EventEnvelope, built).ok).to.equal(true);
    const intake = eventEnvelope('E_OAUTH_LOGIN_FAILED', scope, {}, { ts: 7, origin: 'intake' });
    expect(intake).to.include({ ts: 7, origin: 'intake' });
  });

  it('no service or lib builds an envelope by hand: they all call eventEnvelope', () => {
    // an object literal naming the event, its data version and its community
    const handBuilt = /\beventName\b[^{}]*\bversion: \d+,[^{}]*\bcommunityId\b/;
    const offenders = ['services', 'libs'].flatMap((top) => {
      const root = new URL(`../../${top}`, import.meta.url).pathname;
      return readdirSync(root).flatMap((name) => {
        const src = join(root, name, 'src');
        try {
          statSync(src);
        } catch {
          return [];
        }
        return sourcesOf(src)
          .filter((text) => handBuilt.test(text))
          .map((text) => `${top}/${name}: ${text.match(handBuilt)?.[0] ?? ''}`);
      });
    });
    expect(offenders).to.deep.equal([]);
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
    // the pointer escapes ~ and / in keys (RFC 6901) and names array indexes
    let odd: unknown = [{ leaf: 1 }];
    for (let i = 0; i < MAX_JSON_DEPTH - 1; i++) odd = { 'x/y~z': odd };
    const escaped = validate(Type.Array(Type.Unknown()), [odd]);
    expect(!escaped.ok && escaped.issues[0]?.path).to.equal(
      `/0${'/x~1y~0z'.repeat(MAX_JSON_DEPTH - 1)}`,
    );
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
