// /verificationConfig/community/{communityId}[/{id_or_tag}]: create (spec 2.4) plus list, get,
// update and delete. A config's `review` (DESIGN 2.5) may come beside its settings or inside them;
// it is kept in settings.review and shown both ways. An update may also come from an admin
// operator of the community (the console), signed in within the last 5 minutes; every update is
// audited with its actor and the members it changed.
import { fromParam, type CredentialAuth, type OperatorTokens } from '@idv/auth';
import { isDeepStrictEqual } from 'node:util';
import {
  VerificationConfigCreate,
  VerificationConfigPatch,
  type ReviewSettings,
  type VerificationSettings,
} from '@idv/contracts';
import { BadRequest, NotFound, parseBody, type Route } from '@idv/http';
import type { TenantStore } from '@idv/platform';
import type { Request } from 'express';
import { brandingIssues } from './branding.ts';
import { comparisonIssues, withoutUnusedScores } from './comparisonCriteria.ts';
import { reviewOf } from '../review/reviewPolicy.ts';
import { checkItems, pickArrays, referencedTags, type ConfigArrays } from './configItems.ts';
import type {
  VerificationConfigRecord,
  VerificationConfigStore,
} from './verificationConfigStore.ts';
import type { VerifierStore } from '../verifiers/verifierStore.ts';
import { communityOfPath, MANAGER_LEVELS, refuseFixedMembers } from '../shared/community.ts';
import { adminOrLicence, changeAudit } from '../shared/operatorAccess.ts';

export interface VerificationConfigRouteDeps {
  auth: CredentialAuth;
  operators: OperatorTokens;
  tenants: TenantStore;
  verifiers: VerifierStore;
  configs: VerificationConfigStore;
}

function present(config: VerificationConfigRecord) {
  return {
    id: config.id,
    tenantId: config.tenantId,
    communityId: config.communityId,
    tag: config.tag,
    name: config.name,
    ...config.arrays,
    settings: config.settings,
    review: reviewOf(config.settings),
    createdAt: config.createdAt.toISOString(),
    updatedAt: config.updatedAt.toISOString(),
  };
}

/**
 * The settings with the config's `review` in them: given beside settings (DESIGN 2.5) it lands in
 * settings.review, over `base` (a patch's current settings); given both ways it must be alike.
 */
function withReview(
  settings: VerificationSettings | undefined,
  review: ReviewSettings | undefined,
  base?: VerificationSettings,
): VerificationSettings | undefined {
  if (review === undefined) return settings;
  if (settings?.review && !isDeepStrictEqual(settings.review, review))
    throw new BadRequest('review and settings.review differ: give one of them', [
      { path: '/review', message: 'differs from /settings/review' },
    ]);
  return { ...(settings ?? base), review };
}

/** What the settings' schema cannot say: comparison criteria that fit, a logo that is one. */
function refuseComparisonIssues(settings: VerificationSettings | undefined): void {
  const issues = [...comparisonIssues(settings), ...brandingIssues(settings)];
  if (issues.length > 0)
    throw new BadRequest(`body is invalid: ${issues[0]!.path} ${issues[0]!.message}`, issues);
}

export function verificationConfigRoutes(deps: VerificationConfigRouteDeps): Route[] {
  const guards = [
    deps.auth.require({ levels: MANAGER_LEVELS, community: { id: fromParam('communityId') } }),
  ];
  const community = communityOfPath(deps.tenants);
  const config = async (req: Request): Promise<VerificationConfigRecord> => {
    const [found] = await deps.configs.find(
      [(await community(req)).id],
      String(req.params.idOrTag),
    );
    if (!found) throw new NotFound(`verification config ${String(req.params.idOrTag)} not found`);
    return found;
  };
  /** Every item must name a verifier of the community able to do its kind; else 400 listing each. */
  const checkReferences = async (communityId: string, arrays: ConfigArrays): Promise<void> => {
    const verifiers = await deps.verifiers.findByTags(communityId, referencedTags(arrays));
    const issues = checkItems(arrays, new Map(verifiers.map((v) => [v.tag, v.type])));
    if (issues.length > 0)
      throw new BadRequest(`${issues.length} verifier reference(s) are invalid`, issues);
  };
  const base = '/verificationConfig/community/:communityId';
  const one = `${base}/:idOrTag`;

  return [
    {
      method: 'PUT',
      path: base,
      guards,
      doc: {
        summary:
          'creates a verification config (spec 2.4); its review {mode: off | on_inconclusive | always, fourEyes, slaMinutes 1..43200} beside settings or inside them',
        body: VerificationConfigCreate,
        errors: [409],
      },
      handler: async (req, res) => {
        const input = parseBody(VerificationConfigCreate, req.body);
        const settings = withReview(input.settings, input.review);
        refuseComparisonIssues(settings);
        const owner = await community(req);
        if (input.tenantId !== owner.tenantId) {
          throw new BadRequest('tenantId is not the tenant of this community', [
            { path: '/tenantId', message: 'does not own the community' },
          ]);
        }
        const arrays = pickArrays(input);
        if (Object.keys(arrays).length === 0)
          throw new BadRequest('at least one of the twelve verifier arrays is required');
        await checkReferences(owner.id, arrays);
        const created = await deps.configs.create({
          tenantId: owner.tenantId,
          communityId: owner.id,
          tag: input.tag,
          name: input.name,
          arrays,
          settings: withoutUnusedScores(settings ?? {}),
        });
        res.json(present(created));
      },
    },
    {
      method: 'GET',
      path: base,
      guards,
      doc: { summary: "the community's verification configs" },
      handler: async (req, res) =>
        res.json((await deps.configs.list((await community(req)).id)).map(present)),
    },
    {
      method: 'GET',
      path: one,
      guards,
      doc: { summary: 'one verification config by id or tag' },
      handler: async (req, res) => res.json(present(await config(req))),
    },
    {
      method: 'PATCH',
      path: one,
      guards: [adminOrLicence(deps)],
      doc: {
        summary: 'changes name, arrays, settings or review (review alone keeps the other settings)',
        body: VerificationConfigPatch,
        errors: [409],
      },
      handler: async (req, res) => {
        refuseFixedMembers(req.body, ['tag', 'tenantId']);
        const changes = parseBody(VerificationConfigPatch, req.body);
        const current = await config(req);
        const settings = withReview(changes.settings, changes.review, current.settings);
        refuseComparisonIssues(settings);
        const arrays = pickArrays(changes);
        await checkReferences(current.communityId, arrays);
        res.json(
          present(
            await deps.configs.update(
              current,
              { name: changes.name, arrays, settings: withoutUnusedScores(settings) },
              changeAudit(res, 'verification_config.updated', current, changes),
            ),
          ),
        );
      },
    },
    {
      method: 'DELETE',
      path: one,
      guards,
      doc: { summary: 'deletes a verification config', success: 204 },
      handler: async (req, res) => {
        await deps.configs.delete(await config(req));
        res.status(204).end();
      },
    },
  ];
}
