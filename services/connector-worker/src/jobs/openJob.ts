// Opens what a job carries sealed (the verifier config and the document) and checks the config
// against its type's contract and the document's image URLs against the community's hosts;
// anything wrong is our refusal, never a provider's failure.
import {
  ConnectorJobSecrets,
  KINDS_BY_CONNECTOR,
  refusedImageUrls,
  validate,
  validateConfig,
  type ConfigOf,
  type ConnectorJob,
  type ConnectorType,
} from '@idv/contracts';
import type { SecretBox } from '@idv/crypto';
import { Refused } from '../outcomes.ts';

/** The job is for this worker's type and a kind the type can do. */
export function checkRouting(type: ConnectorType, job: ConnectorJob): void {
  if (job.verifier.type !== type)
    throw new Refused('wrong_queue', `a ${job.verifier.type} job reached a ${type} worker`);
  if (!KINDS_BY_CONNECTOR[type].includes(job.kind))
    throw new Refused('unsupported_kind', `${type} cannot do ${job.kind}`);
}

/** What a job opens to: the verifier config of the worker's type, and the document. */
export interface OpenedJob<T extends ConnectorType> {
  config: ConfigOf<T>;
  document: Record<string, unknown>;
}

export function openJob<T extends ConnectorType>(
  box: SecretBox,
  type: T,
  job: ConnectorJob,
): OpenedJob<T> {
  let secrets: unknown;
  try {
    secrets = JSON.parse(box.open(job.sealed, job.jobId));
  } catch {
    throw new Refused('sealed_unreadable', 'the job does not open under this MASTER_KEY');
  }
  const checked = validate(ConnectorJobSecrets, secrets);
  if (!checked.ok) throw new Refused('invalid_job', 'sealed part is not config + document');
  const config = validateConfig(type, checked.value.config);
  if (!config.ok) {
    const issues = config.issues.map((i) => `${i.path || 'config'} ${i.message}`).join('; ');
    throw new Refused('invalid_config', `verifier config: ${issues}`);
  }
  const document = checked.value.document;
  // before any call: neither this worker nor a provider is sent to a host the community refuses
  const [refused] = refusedImageUrls(document, job.imageUrlHosts ?? []);
  if (refused) throw new Refused('image_host_not_allowed', refused.message);
  return { config: config.value, document };
}
