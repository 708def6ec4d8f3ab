// face_cloud calls the cloud image-analysis service's CompareFaces through its official SDK, with
// `endpoint` = connectorUrl (SigV4 signing by the SDK). awsAccessKey / awsSecretKey / awsRegion
// (default us-east-1) are the account. SimilarityThreshold 80 (the service's default): a face at or
// above it is in FaceMatches. No face in the source image is "not verified", not a refusal.
// One SDK client per account and endpoint serves every call: a client's destroy() would close the
// worker's shared sockets under the calls of every other verifier.
import { createHash } from 'node:crypto';
import { CompareFacesCommand, RekognitionClient } from '@aws-sdk/client-rekognition';
import type { AxiosInstance } from 'axios';
import { ProviderRejected, ProviderUnavailable, outcomeOf, type JobOutcome } from '../outcomes.ts';
import type { Adapter, AdapterInput } from './types.ts';
import { facePair, type ImageRef } from './shared/documentInputs.ts';
import { decision } from './shared/normalise.ts';
import { callProvider } from './shared/providerCall.ts';

const SIMILARITY_THRESHOLD = 80;
const SERVICE_TROUBLE = new Set([
  'ThrottlingException',
  'ProvisionedThroughputExceededException',
  'InternalServerError',
  'ServiceUnavailableException',
]);
/** Accounts whose clients are kept; beyond it the least recently used one is dropped (unclosed). */
const MAX_CLIENTS = 256;

async function bytesOf(input: AdapterInput, image: ImageRef): Promise<Uint8Array> {
  if (image.image) return Buffer.from(image.image, 'base64');
  // The service takes bytes or its own storage objects, so a presigned URL is fetched first.
  const data = await callProvider(input, 'image URL', {
    method: 'GET',
    url: image.url ?? '',
    responseType: 'arraybuffer',
  });
  return Buffer.from(data as ArrayBuffer);
}

function classify(err: unknown): JobOutcome {
  const {
    name = 'Error',
    message = '',
    $metadata,
  } = err as { name?: string; message?: string; $metadata?: { httpStatusCode?: number } };
  const status = $metadata?.httpStatusCode;
  if (name === 'AbortError')
    return new ProviderUnavailable('provider_timeout', 'CompareFaces aborted');
  if (status !== undefined && status >= 400 && status < 500 && !SERVICE_TROUBLE.has(name)) {
    return new ProviderRejected(`CompareFaces refused: ${name} ${message}`, status);
  }
  if (status !== undefined)
    return new ProviderUnavailable('provider_5xx', `CompareFaces failed: ${name}`);
  const other = outcomeOf(err); // the SSRF guard's refusal stays a refusal
  if (other.code === 'blocked_target') return other;
  return new ProviderUnavailable('provider_unreachable', `CompareFaces failed: ${name}`);
}

/** The clients of one worker, keyed by endpoint, region and account (the secret as a hash). */
class ClientPool {
  private readonly clients = new Map<string, RekognitionClient>();

  constructor(private readonly http: AxiosInstance) {}

  of(input: AdapterInput): RekognitionClient {
    const region = String(input.config.awsRegion ?? 'us-east-1');
    const accessKeyId = String(input.config.awsAccessKey ?? '');
    const secretAccessKey = String(input.config.awsSecretKey ?? '');
    const key = createHash('sha256')
      .update(JSON.stringify([input.connectorUrl, region, accessKeyId, secretAccessKey]))
      .digest('base64');
    const found = this.clients.get(key);
    if (found) {
      this.clients.delete(key); // re-inserted: Map order is the recency order
      this.clients.set(key, found);
      return found;
    }
    const client = new RekognitionClient({
      endpoint: input.connectorUrl,
      region,
      credentials: { accessKeyId, secretAccessKey },
      maxAttempts: 1, // the breaker and the gateway's failover retry, not the SDK
      requestHandler: {
        // the worker's guarded agents: the SDK connects only where the SSRF guard allows
        httpAgent: this.http.defaults.httpAgent,
        httpsAgent: this.http.defaults.httpsAgent,
        requestTimeout: this.http.defaults.timeout,
        connectionTimeout: this.http.defaults.timeout,
      },
    });
    this.clients.set(key, client);
    const oldest = this.clients.keys().next();
    if (this.clients.size > MAX_CLIENTS && !oldest.done) this.clients.delete(oldest.value);
    return client;
  }
}

/** The face_cloud adapter of one worker; its clients share the worker's sockets. */
export function createFaceCloud(http: AxiosInstance): Adapter {
  const pool = new ClientPool(http);
  return async (input) => {
    const { source, target } = facePair(input.document);
    const command = new CompareFacesCommand({
      SourceImage: { Bytes: await bytesOf(input, source) },
      TargetImage: { Bytes: await bytesOf(input, target) },
      SimilarityThreshold: SIMILARITY_THRESHOLD,
    });
    try {
      const answer = await pool.of(input).send(command, { abortSignal: input.signal });
      const { $metadata: _metadata, ...raw } = answer;
      const best = Math.max(0, ...(answer.FaceMatches ?? []).map((m) => m.Similarity ?? 0));
      const result = decision(best >= SIMILARITY_THRESHOLD, ['faces_differ'], { score: best });
      return { result: { ...result, threshold: SIMILARITY_THRESHOLD }, raw };
    } catch (err) {
      const { name, message } = err as { name?: string; message?: string };
      if (
        name === 'InvalidParameterException' &&
        /invalid parameters|no face/i.test(message ?? '')
      ) {
        return {
          result: decision(false, ['no_face_detected'], { score: 0 }),
          raw: { error: name },
        };
      }
      throw classify(err);
    }
  };
}
