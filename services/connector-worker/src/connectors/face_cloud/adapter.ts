// face_cloud calls the cloud image-analysis service's CompareFaces through its official SDK, with
// `endpoint` = connectorUrl (SigV4 signing by the SDK). awsAccessKey / awsSecretKey / awsRegion
// (default us-east-1) are the account. SimilarityThreshold 80 (the service's default): a face at or
// above it is in FaceMatches. No face in the source image is "not verified", not a refusal.
// One SDK client per verifier account (provider/accounts.ts: the verifier, its community, endpoint
// and whole config) serves every call of it (a client is costly to make); every client sends
// through the worker's provider client (provider/sdkHandler.ts), so the SSRF guard, the timeout and
// the answer cap hold for the SDK too.
import {
  CompareFacesCommand,
  InvalidParameterException,
  ProvisionedThroughputExceededException,
  RekognitionClient,
  RekognitionServiceException,
  ThrottlingException,
} from '@aws-sdk/client-rekognition';
import { ProviderRejected, ProviderUnavailable, type JobOutcome } from '../../outcomes.ts';
import type { GuardedHttp } from '@idv/netguard';
import { RecentlyUsed } from '../../provider/recentlyUsed.ts';
import { sdkHandler } from '../../provider/sdkHandler.ts';
import type { Adapter, AdapterInput, WorkerConnector } from '../connector.ts';
import { facePair, type ImageRef } from '../shared/documentInputs.ts';
import { decision } from '../shared/normalise.ts';
import { callProvider, classifyCallFailure, statusOutcome } from '../shared/providerCall.ts';

type Input = AdapterInput<'face_cloud'>;

const SIMILARITY_THRESHOLD = 80;
/** Accounts whose clients are kept; beyond it the least recently used one is dropped (unclosed). */
const MAX_CLIENTS = 256;

async function bytesOf(input: Input, image: ImageRef): Promise<Uint8Array> {
  if (image.image) return Buffer.from(image.image, 'base64');
  // The service takes bytes or its own storage objects, so a presigned URL is fetched first.
  return callProvider(input, 'image URL', {
    method: 'GET',
    url: image.url ?? '',
    responseType: 'arraybuffer',
  });
}

/** The service's errors by the SDK's classes: throttling and its own faults are its trouble, the
 *  rest of its answers (a bad signature, a bad image) sorted by status as any provider's; a call
 *  that got no answer as any provider call's. */
function classify(err: unknown): JobOutcome {
  const what = 'CompareFaces';
  if (err instanceof ThrottlingException || err instanceof ProvisionedThroughputExceededException)
    return new ProviderUnavailable('provider_throttled', `${what} throttled: ${err.name}`);
  if (err instanceof RekognitionServiceException) {
    if (err.$fault === 'server')
      return new ProviderUnavailable('provider_5xx', `${what} failed: ${err.name}`);
    // a bare 429 or 408 (no error type the SDK knows) is the service's trouble as well
    const status = err.$metadata.httpStatusCode ?? 400;
    const sorted = statusOutcome(status, what);
    if (sorted instanceof ProviderRejected || !sorted)
      return new ProviderRejected(`${what} refused: ${err.name} ${err.message}`, status);
    return sorted;
  }
  return classifyCallFailure(err, what);
}

/** The clients of one worker, keyed by the job's account (endpoint, region and keys among it). */
class ClientPool {
  private readonly clients = new RecentlyUsed<RekognitionClient>(MAX_CLIENTS);
  private readonly handler: ReturnType<typeof sdkHandler>;

  constructor(http: GuardedHttp) {
    this.handler = sdkHandler(http);
  }

  of(input: Input): RekognitionClient {
    const region = input.config.awsRegion ?? 'us-east-1';
    const accessKeyId = input.config.awsAccessKey ?? '';
    const secretAccessKey = input.config.awsSecretKey ?? '';
    const found = this.clients.get(input.account);
    if (found) return found;
    const client = new RekognitionClient({
      endpoint: input.connectorUrl,
      region,
      credentials: { accessKeyId, secretAccessKey },
      maxAttempts: 1, // the breaker and the gateway's failover retry, not the SDK
      requestHandler: this.handler,
    });
    this.clients.set(input.account, client);
    return client;
  }
}

/** The face_cloud adapter of one worker; its clients share the worker's sockets. */
function createFaceCloud(http: GuardedHttp): Adapter<'face_cloud'> {
  const pool = new ClientPool(http);
  return async (input) => {
    const { source, target } = facePair(input.document);
    const [sourceBytes, targetBytes] = await Promise.all([
      bytesOf(input, source),
      bytesOf(input, target),
    ]);
    const command = new CompareFacesCommand({
      SourceImage: { Bytes: sourceBytes },
      TargetImage: { Bytes: targetBytes },
      SimilarityThreshold: SIMILARITY_THRESHOLD,
    });
    try {
      const answer = await pool.of(input).send(command, { abortSignal: input.signal });
      const { $metadata: _metadata, ...raw } = answer;
      const best = Math.max(0, ...(answer.FaceMatches ?? []).map((m) => m.Similarity ?? 0));
      const result = decision(best >= SIMILARITY_THRESHOLD, ['faces_differ'], { score: best });
      return { result: { ...result, threshold: SIMILARITY_THRESHOLD }, raw };
    } catch (err) {
      // the service's documented answer when it finds no face in an image
      if (err instanceof InvalidParameterException) {
        return {
          result: decision(false, ['no_face_detected'], { score: 0 }),
          raw: { error: err.name },
        };
      }
      throw classify(err);
    }
  };
}

export const connector: WorkerConnector<'face_cloud'> = {
  type: 'face_cloud',
  start: ({ http }) => ({ adapter: createFaceCloud(http), close: async () => {} }),
};
