// A document sent to a review provider (agent_review and auto_review speak the same request;
// protocols in the sandbox's routes/review.ts): config.url overrides <connectorUrl><path>, apiKey
// goes in x-api-key.
import type { AdapterInput } from '../connector.ts';
import { documentImages, documentKind } from './documentInputs.ts';
import { callProvider, endpoint } from './providerCall.ts';

type ReviewInput = Pick<AdapterInput, 'kind' | 'connectorUrl' | 'document' | 'http' | 'signal'>;

export function submitForReview(
  input: ReviewInput,
  config: { apiKey?: string; url?: string },
  path: string,
  /** where the provider calls back with a decision it takes later */
  callbackUrl?: string,
): Promise<unknown> {
  return callProvider(input, 'review provider', {
    method: 'POST',
    url: endpoint(input.connectorUrl, config.url, path),
    headers: { 'x-api-key': config.apiKey ?? '' },
    data: {
      documentType: documentKind(input.kind),
      images: documentImages(input.document),
      ...(callbackUrl ? { callbackUrl } : {}),
    },
  });
}

export const reasonsOf = (value: unknown): string[] =>
  Array.isArray(value) ? value.map(String) : [];
