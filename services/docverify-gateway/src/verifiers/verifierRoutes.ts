// /verifier/community/{communityId}[/{id_or_tag}]: create, list, get, update, delete (spec 2.3, 4).
// An update may also come from an admin operator of the community (the console), signed in within
// the last 5 minutes; every update is audited with its actor and the members it changed.
import {
  fromParam,
  licenceOf,
  operatorOf,
  type CredentialAuth,
  type OperatorTokens,
} from '@idv/auth';
import {
  CONFIG_BY_CONNECTOR,
  maskSecrets,
  SECRET_MASK,
  VerifierCreate,
  Verifier,
  VerifierPatch,
  type ConnectorType,
} from '@idv/contracts';
import { Type } from '@sinclair/typebox';
import { BadRequest, NotFound, parseBody, type Route } from '@idv/http';
import type { TenantStore } from '@idv/platform';
import type { Request, Response } from 'express';
import { changedAddresses, maskedSecrets } from './configAddresses.ts';
import { unmaskSecrets } from './secrets.ts';
import { communityOfPath, MANAGER_LEVELS, refuseFixedMembers } from '../shared/community.ts';
import type { VerifierRecord, VerifierStore } from './verifierStore.ts';
import { adminOrLicence, changeAudit } from '../shared/operatorAccess.ts';

export interface VerifierRouteDeps {
  auth: CredentialAuth;
  operators: OperatorTokens;
  tenants: TenantStore;
  verifiers: VerifierStore;
}

function present(verifier: VerifierRecord, res: Response) {
  // an operator's answer masks secrets whatever the role: the console reveals them apart, audited
  const reveal = !operatorOf(res) && licenceOf(res).level === 'system';
  return {
    id: verifier.id,
    communityId: verifier.communityId,
    name: verifier.name,
    tag: verifier.tag,
    type: verifier.type,
    connectorUrl: verifier.connectorUrl,
    config: reveal ? verifier.config : maskSecrets(verifier.config),
    ...(verifier.limits ? { limits: verifier.limits } : {}),
    createdAt: verifier.createdAt.toISOString(),
    updatedAt: verifier.updatedAt.toISOString(),
  };
}

function checkConfig(
  type: ConnectorType,
  config: Record<string, unknown>,
): Record<string, unknown> {
  return parseBody(CONFIG_BY_CONNECTOR[type], config, '/config') as Record<string, unknown>;
}

function refuseMasked(pointers: string[], why: string): void {
  if (pointers.length === 0) return;
  const paths = pointers.map((pointer) => `/config${pointer}`);
  throw new BadRequest(
    `${paths.join(', ')}: give the secret itself, not ${SECRET_MASK} (${why})`,
    paths.map((path) => ({ path, message: `must be the secret itself, not ${SECRET_MASK}` })),
  );
}

/**
 * The config a PATCH stores, or undefined to keep it. A masked secret sent back keeps the stored
 * one only while connectorUrl and every address member stay as they are: secrets given for one
 * provider never follow a new address. Judged against `current` as read: the store writes it only
 * while the row is still that version (409 otherwise), so a concurrent move cannot slip between.
 */
function nextConfig(
  current: VerifierRecord,
  changes: VerifierPatch,
): Record<string, unknown> | undefined {
  const moved = changes.connectorUrl !== undefined && changes.connectorUrl !== current.connectorUrl;
  if (changes.config === undefined) {
    if (!moved) return undefined;
    throw new BadRequest(
      'changing connectorUrl needs the config, with its secrets, in the same request',
      [{ path: '/config', message: 'is required when connectorUrl changes' }],
    );
  }
  const readdressed = [
    ...(moved ? ['/connectorUrl'] : []),
    ...changedAddresses(current.type, current.config, changes.config).map((p) => `/config${p}`),
  ];
  if (readdressed.length > 0) {
    refuseMasked(
      maskedSecrets(current.type, changes.config),
      `${readdressed.join(', ')} changed, so stored secrets are not kept`,
    );
    return checkConfig(current.type, changes.config);
  }
  const { value, missing } = unmaskSecrets(changes.config, current.config);
  refuseMasked(missing, 'no secret is stored there');
  return checkConfig(current.type, value as Record<string, unknown>);
}

export function verifierRoutes(deps: VerifierRouteDeps): Route[] {
  const guards = [
    deps.auth.require({ levels: MANAGER_LEVELS, community: { id: fromParam('communityId') } }),
  ];
  const communityOf = communityOfPath(deps.tenants);
  const community = async (req: Request): Promise<string> => (await communityOf(req)).id;
  const verifierOf = async (req: Request) => {
    const scope = await communityOf(req);
    const found = await deps.verifiers.find(scope.id, String(req.params.idOrTag));
    if (!found) throw new NotFound(`verifier ${String(req.params.idOrTag)} not found`);
    return { verifier: found, tenantId: scope.tenantId };
  };
  const verifier = async (req: Request) => (await verifierOf(req)).verifier;
  const base = '/verifier/community/:communityId';
  const one = `${base}/:idOrTag`;

  return [
    {
      method: 'PUT',
      path: base,
      guards,
      doc: {
        summary: 'creates a verifier of the community',
        body: VerifierCreate,
        response: Verifier,
        errors: [409],
      },
      handler: async (req, res) => {
        const input = parseBody(VerifierCreate, req.body);
        // nothing is stored yet that a mask could stand for
        refuseMasked(maskedSecrets(input.type, input.config), 'there is no stored secret to keep');
        const config = checkConfig(input.type, input.config);
        res.json(
          present(await deps.verifiers.create(await communityOf(req), { ...input, config }), res),
        );
      },
    },
    {
      method: 'GET',
      path: base,
      guards,
      doc: {
        summary: "the community's verifiers (404 when there is none)",
        response: Type.Array(Verifier),
      },
      handler: async (req, res) => {
        const all = await deps.verifiers.list(await community(req));
        if (all.length === 0) throw new NotFound('verifiers not found');
        res.json(all.map((v) => present(v, res)));
      },
    },
    {
      method: 'GET',
      path: one,
      guards,
      doc: { summary: 'one verifier by id or tag', response: Verifier },
      handler: async (req, res) => res.json(present(await verifier(req), res)),
    },
    {
      method: 'PATCH',
      path: one,
      guards: [adminOrLicence(deps)],
      doc: {
        summary: 'changes name, connectorUrl, the whole config or the limits ({} lifts them)',
        body: VerifierPatch,
        response: Verifier,
        errors: [409],
      },
      handler: async (req, res) => {
        refuseFixedMembers(req.body, ['tag', 'type']);
        const changes = parseBody(VerifierPatch, req.body);
        const { verifier: current, tenantId } = await verifierOf(req);
        const config = nextConfig(current, changes);
        const audit = changeAudit(res, 'verifier.updated', current, changes);
        res.json(
          present(
            await deps.verifiers.update(current, { ...changes, config }, tenantId, audit),
            res,
          ),
        );
      },
    },
    {
      method: 'DELETE',
      path: one,
      guards,
      doc: { summary: 'deletes a verifier permanently', success: 204 },
      handler: async (req, res) => {
        const { verifier: gone, tenantId } = await verifierOf(req);
        await deps.verifiers.delete(gone, tenantId);
        res.status(204).end();
      },
    },
  ];
}
