// One POST /verify: every requested kind asked in parallel, certifications signed, events sent.
import { randomUUID } from 'node:crypto';
import type {
  ConfigItem,
  ReviewResult,
  VerificationKind,
  VerifyRequest,
  VerifyResult,
} from '@idv/contracts';
import { InputError, UnavailableError } from '@idv/errors';
import type { ServiceKey } from '@idv/platform';
import { compareData } from './dataComparison.ts';
import { signProof, type ProofClaims } from './proof.ts';
import type { ImageUrlHostStore } from './imageUrlHostStore.ts';
import type { VerificationConfigRecord } from '../verificationConfigs/verificationConfigStore.ts';
import type { VerifierStore } from '../verifiers/verifierStore.ts';
import {
  askConnectors,
  type Answer,
  type AskDeps,
  type Asked,
} from '../connectors/askConnector.ts';

export interface RunDeps extends AskDeps {
  verifiers: VerifierStore;
  /** each job carries its community's list: the worker refuses other hosts before any call */
  imageUrlHosts: ImageUrlHostStore;
  serviceKey: () => Promise<ServiceKey>;
  recordOutcome: (kind: VerificationKind, outcome: string) => void;
}

type Certification = VerifyResult['certifications'][number];

/** What a human review's certification signs beside the common claims: its decision. */
function reviewClaims(c: Omit<Certification, 'proof'>): ProofClaims['review'] {
  if (c.kind !== 'human_review' || !c.result) return undefined;
  // a human review's result is a ReviewResult (contracts/http/review.ts)
  const { decision, reasonCode, caseId, decidedAt } = c.result as unknown as ReviewResult;
  return { decision, reasonCode, caseId, decidedAt };
}

/**
 * Signs a certification of `verificationId` with the service key: connectors' answers, settled
 * pending kinds and human reviews alike.
 */
export function proofSigner(key: ServiceKey, verificationId: string, dvcID: string) {
  return (c: Omit<Certification, 'proof'>): string => {
    const review = reviewClaims(c);
    return signProof(key.keySecret, key.keyId, {
      verificationId,
      kind: c.kind,
      verifier: c.verifier,
      verified: c.verified,
      status: c.status,
      dvcID,
      ...(review ? { review } : {}),
    });
  };
}

/** What a certification is made from: a connector's answer and the verifier that gave it. */
export interface CertifiedAnswer {
  reply: Pick<Answer['reply'], 'outcome' | 'authority' | 'result'>;
  verifier: { tag: string };
  raw?: unknown;
}

export function certify(
  kind: VerificationKind,
  answer: CertifiedAnswer,
  proof: (c: Omit<Certification, 'proof'>) => string,
): Certification {
  const { reply } = answer;
  const verified = reply.outcome === 'completed' && reply.result?.verified === true;
  const status =
    reply.outcome === 'completed' ? (reply.result?.status ?? 'inconclusive') : 'rejected';
  const base = {
    kind,
    verified,
    status,
    authority: reply.authority,
    verifier: answer.verifier.tag,
    ...(reply.result ? { result: reply.result } : {}),
    ...(answer.raw !== undefined ? { rawData: answer.raw } : {}),
  };
  return { ...base, proof: proof(base) };
}

/** The data_comparison certification, when the config asks for one and a document yielded data. */
export function compareWithDocument(
  config: VerificationConfigRecord,
  request: VerifyRequest,
  certifications: Certification[],
  proof: (c: Omit<Certification, 'proof'>) => string,
): Certification | undefined {
  const attributes = config.settings.dataComparisonAttributes ?? [];
  const source = certifications.find(
    (c) => c.result && 'extracted' in c.result && c.result.extracted,
  );
  const extracted =
    source?.result && 'extracted' in source.result ? source.result.extracted : undefined;
  if (attributes.length === 0 || !source || !extracted) return undefined;
  const fields = compareData(attributes, request.document, extracted);
  if (fields.length === 0) return undefined;
  const verified = fields.every((f) => f.passed);
  const base = {
    kind: 'data_comparison' as const,
    verified,
    status: verified ? 'verified' : 'not_verified',
    authority: 'docverify',
    verifier: source.verifier,
    result: {
      verified,
      status: verified ? ('verified' as const) : ('not_verified' as const),
      reasons: fields
        .filter((f) => !f.passed)
        .map((f) => (f.submitted ? `${f.field}_mismatch` : `${f.field}_not_submitted`)),
      fieldMatches: Object.fromEntries(fields.map((f) => [f.field, f.passed])),
      fieldScores: Object.fromEntries(fields.map((f) => [f.field, f.score])),
    },
  };
  return { ...base, proof: proof(base) };
}

/**
 * Runs `request` through `config`; every connector job must be answered by `deadline` (epoch ms).
 * A verification run passes its own id, so a re-run after a crash keeps the verificationId.
 */
export async function runVerification(
  deps: RunDeps,
  request: VerifyRequest,
  config: VerificationConfigRecord,
  deadline: number,
  verificationId: string = randomUUID(),
): Promise<VerifyResult> {
  const key = await deps.serviceKey();
  const itemsByKind = new Map<VerificationKind, ConfigItem[]>();
  for (const kind of request.verifications) {
    const items = (config.arrays[kind] ?? []).filter((item) => !item.skip);
    if (items.length === 0)
      throw new InputError(`verification config ${config.tag} has no verifier for ${kind}`, [
        { path: '/verifications', message: `${kind} is not configured` },
      ]);
    itemsByKind.set(kind, items);
  }
  const tags = [...new Set([...itemsByKind.values()].flat().map((item) => item.verifier))];
  const verifiers = new Map(
    (await deps.verifiers.findByTagsCached(config.communityId, tags)).map((v) => [v.tag, v]),
  );
  const context = {
    tenantId: config.tenantId,
    communityId: config.communityId,
    dvcID: request.dvcID,
  };
  const imageUrlHosts = await deps.imageUrlHosts.of(config.communityId);

  const answers = await Promise.all(
    request.verifications.map(async (kind) => {
      const items = (itemsByKind.get(kind) ?? []).map((item) => ({
        item,
        verifier: verifiers.get(item.verifier),
      }));
      const asked: Asked = await askConnectors(deps, {
        kind,
        items,
        document: request.document,
        context,
        deadline,
        verificationId,
        imageUrlHosts,
      });
      return [kind, asked] as const;
    }),
  );
  const missing = answers.filter(([, asked]) => !asked.answer);
  for (const [kind] of missing) deps.recordOutcome(kind, 'unavailable');
  if (missing.length > 0) {
    const retryAfterMs = Math.max(
      ...missing.map(([, asked]) => (asked.answer ? 0 : asked.retryAfterMs)),
    );
    throw new UnavailableError(
      `no verifier could do ${missing.map(([kind]) => kind).join(', ')} in time now; retry shortly`,
      retryAfterMs / 1000,
    );
  }

  const proof = proofSigner(key, verificationId, request.dvcID);
  const certifications = answers.map(([kind, asked]) =>
    certify(kind, asked.answer as Answer, proof),
  );
  const comparison = compareWithDocument(config, request, certifications, proof);
  if (comparison) certifications.push(comparison);
  for (const c of certifications)
    if (c.kind !== 'data_comparison' && c.kind !== 'human_review')
      deps.recordOutcome(c.kind, c.status);
  return {
    verificationId,
    docId: request.document.id,
    docType: request.document.type,
    dvcID: request.dvcID,
    status: overallStatus(certifications),
    certifications,
  };
}

/**
 * verified when every certification is; pending while one awaits its provider's decision; a human
 * review's decision, once given, decides alone (the checks it weighed stay as they were).
 */
export function overallStatus(certifications: Certification[]): VerifyResult['status'] {
  const review = certifications.find((c) => c.kind === 'human_review');
  if (review) return review.verified ? 'verified' : 'not_verified';
  if (certifications.some((c) => c.status === 'pending')) return 'pending';
  return certifications.every((c) => c.verified) ? 'verified' : 'not_verified';
}
