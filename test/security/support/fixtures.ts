// Valid bodies and fresh resources (verifier, verification config, webhook) in a named community,
// so an allowed caller in the matrix meets a real resource and answers 2xx.
import { randomBytes } from 'node:crypto';
import type { Community } from '@idv/platform';
import type { SecurityWorld } from './world.ts';

export const tag = (prefix: string) => `${prefix}-${randomBytes(4).toString('hex')}`;

/** A fake person (obviously not real) used wherever a document needs one. */
export const TESTY = {
  firstName: 'Testy',
  lastName: 'McTestface',
  dob: '19700101',
  ssn: '000-00-0000',
};

export const verifierBody = (apiKey = 'matrix-api-key') => ({
  name: 'Matrix verifier',
  tag: tag('v'),
  type: 'identity_data',
  connectorUrl: 'http://127.0.0.1:9/identity',
  config: { apiKey },
});

export const configBody = (community: Community, verifier: string) => ({
  tenantId: community.tenantId,
  tag: tag('cfg'),
  ssn_verify: [{ verifier }],
});

export const webhookBody = (credential?: Record<string, unknown>, authType = 'none') => ({
  name: 'Matrix callbacks',
  eventNames: ['E_IDV_DOCUMENT_VALIDATE', 'E_IDV_PERSON_VALIDATE'],
  api: {
    type: 'POST',
    url: 'http://127.0.0.1:9/hook',
    authType,
    ...(credential ? { credential } : {}),
  },
  successCodes: [200],
});

export const verifyRequest = (dvcID: string) => ({
  dvcID,
  verifications: ['ssn_verify'],
  document: { id: 'doc-1', type: 'dl', ...TESTY },
});

async function create(
  world: SecurityWorld,
  service: 'docverify' | 'webhooks',
  path: string,
  body: unknown,
): Promise<Record<string, unknown>> {
  const res = await fetch(world.platform.services[service].url + path, {
    method: 'PUT',
    headers: { ...(await world.headers(service, 'system')), 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answer = (await res.json()) as Record<string, unknown>;
  if (res.status !== 200)
    throw new Error(`fixture ${path}: ${res.status} ${JSON.stringify(answer)}`);
  return answer;
}

export interface Fixtures {
  verifier(community: Community): Promise<string>;
  config(community: Community): Promise<string>;
  webhook(community: Community): Promise<string>;
}

export function fixtures(world: SecurityWorld): Fixtures {
  const verifier = async (c: Community) =>
    String((await create(world, 'docverify', `/verifier/community/${c.id}`, verifierBody())).tag);
  return {
    verifier,
    async config(c) {
      const body = configBody(c, await verifier(c));
      await create(world, 'docverify', `/verificationConfig/community/${c.id}`, body);
      return body.tag;
    },
    async webhook(c) {
      const path = `/tenant/${c.tenantId}/community/${c.id}/webhook`;
      return String((await create(world, 'webhooks', path, webhookBody()))._id);
    },
  };
}
