// face_cloud calls the cloud image-analysis service's CompareFaces through its official SDK, with
// `endpoint` = connectorUrl (SigV4 signing by the SDK). awsAccessKey / awsSecretKey / awsRegion
// (default us-east-1) are the account. SimilarityThreshold 80 (the service's default): a face at or
// above it is in FaceMatches. No face in the source image is "not verified", not a refusal.
import { CompareFacesCommand, RekognitionClient } from '@aws-sdk/client-rekognition';
import { ProviderRejected, type Adapter, type AdapterInput } from './types.ts';
import { facePair, type ImageRef } from './shared/documentInputs.ts';
import { decision } from './shared/normalise.ts';
import { callProvider, ProviderFailure } from './shared/providerCall.ts';

const SIMILARITY_THRESHOLD = 80;
const SERVICE_TROUBLE = new Set([
  'ThrottlingException',
  'ProvisionedThroughputExceededException',
  'InternalServerError',
  'ServiceUnavailableException',
]);

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

function classify(err: unknown): Error {
  // the SSRF guard refused the endpoint's address: passed on as a refusal
  if ((err as { code?: unknown }).code === 'EBLOCKEDTARGET') return err as Error;
  const {
    name = 'Error',
    message = '',
    $metadata,
  } = err as { name?: string; message?: string; $metadata?: { httpStatusCode?: number } };
  const status = $metadata?.httpStatusCode;
  if (name === 'AbortError') return new ProviderFailure('CompareFaces aborted', 'provider_timeout');
  if (status !== undefined && status >= 400 && status < 500 && !SERVICE_TROUBLE.has(name)) {
    return new ProviderRejected(`CompareFaces refused: ${name} ${message}`, status);
  }
  return new ProviderFailure(
    `CompareFaces failed: ${name}`,
    status ? 'provider_5xx' : 'provider_unreachable',
  );
}

export const faceCloud: Adapter = async (input) => {
  const { config } = input;
  const { source, target } = facePair(input.document);
  const client = new RekognitionClient({
    endpoint: input.connectorUrl,
    region: String(config.awsRegion ?? 'us-east-1'),
    credentials: {
      accessKeyId: String(config.awsAccessKey ?? ''),
      secretAccessKey: String(config.awsSecretKey ?? ''),
    },
    maxAttempts: 1, // the breaker and the gateway's failover retry, not the SDK
    requestHandler: {
      // the worker's guarded agents: the SDK connects only where the SSRF guard allows
      httpAgent: input.http.defaults.httpAgent,
      httpsAgent: input.http.defaults.httpsAgent,
      requestTimeout: input.http.defaults.timeout,
      connectionTimeout: input.http.defaults.timeout,
    },
  });
  try {
    const command = new CompareFacesCommand({
      SourceImage: { Bytes: await bytesOf(input, source) },
      TargetImage: { Bytes: await bytesOf(input, target) },
      SimilarityThreshold: SIMILARITY_THRESHOLD,
    });
    const answer = await client.send(command, { abortSignal: input.signal });
    const { $metadata: _metadata, ...raw } = answer;
    const best = Math.max(0, ...(answer.FaceMatches ?? []).map((m) => m.Similarity ?? 0));
    const result = decision(best >= SIMILARITY_THRESHOLD, ['faces_differ'], { score: best });
    return { result: { ...result, threshold: SIMILARITY_THRESHOLD }, raw };
  } catch (err) {
    const { name, message } = err as { name?: string; message?: string };
    if (name === 'InvalidParameterException' && /invalid parameters|no face/i.test(message ?? '')) {
      return { result: decision(false, ['no_face_detected'], { score: 0 }), raw: { error: name } };
    }
    throw err instanceof ProviderRejected || err instanceof ProviderFailure ? err : classify(err);
  } finally {
    client.destroy();
  }
};
