// One callback attempt: the signed Standard Webhooks headers, the api's authentication, the call
// through the webhook's breaker and slots, and a single token refresh when an oauth2 target answers 401.
import type { SendRequest } from './callbackHttp.ts';
import { signCallback } from '@idv/crypto';
import type { OAuthTokens, TokenRequest } from './oauthTokens.ts';
import type { CallbackTarget, TargetBreakers, TargetResponse } from './targetBreakers.ts';
import type { DispatchWebhook } from '../store/webhookReader.ts';

export interface CallbackDeps {
  send: SendRequest;
  breakers: TargetBreakers;
  tokens: OAuthTokens;
  /**
   * the current webhooks service key, the one v1k signer: a key a reset replaced never signs, so
   * one that leaked cannot stand behind new callbacks while callers still accept it
   */
  servicePrivateKey: () => Promise<string>;
  checkUrl: (url: string) => void;
}

export interface Callback {
  /** the delivery id: webhook-id on every attempt */
  id: string;
  body: string;
}

/** The origin the callback body states ("platform" for bodies recorded before origins were). */
function originOf(body: string): string {
  try {
    const origin = (JSON.parse(body) as { origin?: unknown }).origin;
    return typeof origin === 'string' ? origin : 'platform';
  } catch {
    return 'platform';
  }
}

function tokenRequest(webhook: DispatchWebhook): TokenRequest | undefined {
  const oauth = webhook.credential?.oauth2;
  if (webhook.api.authType !== 'oauth2' || !oauth || !webhook.api.oAuthTokenUrl) return undefined;
  return {
    webhookId: webhook.id,
    tokenUrl: webhook.api.oAuthTokenUrl,
    clientId: oauth.clientId,
    clientSecret: oauth.clientSecret,
    scopes: webhook.api.oAuthScopes ?? [],
  };
}

async function authHeaders(
  webhook: DispatchWebhook,
  deps: CallbackDeps,
): Promise<Record<string, string>> {
  const credential = webhook.credential ?? {};
  switch (webhook.api.authType) {
    case 'basic': {
      const pair = `${credential.username ?? ''}:${credential.password ?? ''}`;
      return { authorization: `Basic ${Buffer.from(pair).toString('base64')}` };
    }
    case 'bearer':
      return { authorization: `Bearer ${credential.token ?? ''}` };
    case 'api_key':
      return credential.keyName ? { [credential.keyName]: credential.keyValue ?? '' } : {};
    case 'oauth2': {
      const request = tokenRequest(webhook);
      if (!request) throw new Error('oauth2 webhook without token url or client credentials');
      deps.checkUrl(request.tokenUrl);
      return { authorization: `Bearer ${await deps.tokens.token(request)}` };
    }
    default:
      return {};
  }
}

export async function sendCallback(
  webhook: DispatchWebhook,
  callback: Callback,
  deps: CallbackDeps,
): Promise<TargetResponse> {
  const url = webhook.api.url;
  deps.checkUrl(url);
  const target: CallbackTarget = {
    webhookId: webhook.id,
    tenant: webhook.tenantId,
    community: `${webhook.tenantId}/${webhook.communityId}`,
    url,
    origin: new URL(url).origin,
  };
  const privateKey = await deps.servicePrivateKey();
  const origin = originOf(callback.body);
  const once = async (): Promise<TargetResponse> => {
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'idv-webhooks/1',
      ...(await authHeaders(webhook, deps)),
      'webhook-id': callback.id,
      'webhook-timestamp': String(timestamp),
      'webhook-origin': origin,
      'webhook-signature': signCallback({
        id: callback.id,
        timestamp,
        body: callback.body,
        secrets: webhook.secrets,
        servicePrivateKeys: [privateKey],
        origin,
      }),
    };
    return deps.breakers.call(target, () =>
      deps.send({ method: webhook.api.type, url, headers, body: callback.body }),
    );
  };
  const first = await once();
  const request = tokenRequest(webhook);
  if (first.status !== 401 || !request) return first;
  deps.tokens.forget(request);
  return once();
}
