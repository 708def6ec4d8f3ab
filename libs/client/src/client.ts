// Client SDK for callers: builds the credential headers, encrypts bodies, decrypts answers.
import { randomUUID } from 'node:crypto';
import { decrypt, encrypt, generateKeyPair, KeyAgreement, type KeyPair } from '@idv/crypto';
import { ReviewCalls } from './review.ts';
import { SessionCalls } from './sessions.ts';
import { call, callBytes, jsonResponse, type IdvResponse } from './transport.ts';

export type { IdvResponse } from './transport.ts';

export interface IdvClientOptions {
  /** base URL of one service, e.g. http://127.0.0.1:8081 */
  baseUrl: string;
  licenseKey: string;
  /** the caller's key pair; a fresh one is made when absent */
  keyPair?: KeyPair;
  appId?: string;
  /** the service's public key; fetched from /publickeys on first use when absent */
  servicePublicKey?: string;
  /** seconds added to ts, for callers whose clock is known to be off (and for tests) */
  clockSkewSeconds?: number;
}

export class IdvClient {
  readonly keyPair: KeyPair;
  /** verification sessions and asynchronous /verify */
  readonly sessions: SessionCalls;
  /** review cases of the licence's communities (a manager licence: service level or above) */
  readonly review: ReviewCalls;
  private servicePublicKey: string | undefined;
  private agreement: KeyAgreement;

  constructor(private readonly options: IdvClientOptions) {
    this.keyPair = options.keyPair ?? generateKeyPair();
    this.servicePublicKey = options.servicePublicKey;
    this.agreement = new KeyAgreement(this.keyPair.privateKey, 16);
    this.sessions = new SessionCalls(this);
    this.review = new ReviewCalls(this);
  }

  createSession(...args: Parameters<SessionCalls['createSession']>) {
    return this.sessions.createSession(...args);
  }

  sessionResult(...args: Parameters<SessionCalls['sessionResult']>) {
    return this.sessions.sessionResult(...args);
  }

  waitForSession(...args: Parameters<SessionCalls['waitForSession']>) {
    return this.sessions.waitForSession(...args);
  }

  cancelSession(...args: Parameters<SessionCalls['cancelSession']>) {
    return this.sessions.cancelSession(...args);
  }

  verifyAsync(...args: Parameters<SessionCalls['verifyAsync']>) {
    return this.sessions.verifyAsync(...args);
  }

  verification(...args: Parameters<SessionCalls['verification']>) {
    return this.sessions.verification(...args);
  }

  waitForVerification(...args: Parameters<SessionCalls['waitForVerification']>) {
    return this.sessions.waitForVerification(...args);
  }

  /** The service public key (from /publickeys unless given). */
  async serviceKey(): Promise<string> {
    if (!this.servicePublicKey) {
      const res = await call(new URL('/publickeys', this.options.baseUrl), { method: 'GET' });
      if (res.status !== 200) throw new Error(`GET /publickeys answered ${res.status}`);
      this.servicePublicKey = (JSON.parse(res.text) as { publicKey: string }).publicKey;
    }
    return this.servicePublicKey;
  }

  /** Forgets the cached service key, e.g. after the service key was reset. */
  forgetServiceKey(): void {
    this.servicePublicKey = undefined;
  }

  async sharedKey(): Promise<Buffer> {
    return this.agreement.sharedKey(await this.serviceKey());
  }

  /**
   * The three headers of DESIGN 2.2; `extra` adds members to requestid (deviceId, did). Given
   * the request they are for, requestid names it (htm, htu): a copy captured on the way is then
   * refused on any other endpoint.
   */
  async headers(
    extra: Record<string, string> = {},
    target?: { method: string; path: string },
  ): Promise<Record<string, string>> {
    const key = await this.sharedKey();
    const ts = Math.floor(Date.now() / 1000) + (this.options.clockSkewSeconds ?? 0);
    const requestId = {
      appid: this.options.appId ?? 'idv-client',
      uuid: randomUUID(),
      ts,
      ...(target
        ? {
            htm: target.method.toUpperCase(),
            htu: new URL(target.path, this.options.baseUrl).pathname,
          }
        : {}),
      ...extra,
    };
    return {
      publickey: this.keyPair.publicKey,
      licensekey: encrypt(key, this.options.licenseKey),
      requestid: encrypt(key, JSON.stringify(requestId)),
    };
  }

  async encryptJson(value: unknown): Promise<string> {
    return encrypt(await this.sharedKey(), JSON.stringify(value));
  }

  async decryptJson<T>(wire: string): Promise<T> {
    return JSON.parse(decrypt(await this.sharedKey(), wire)) as T;
  }

  /** A JSON request with the credential headers (and `extraHeaders`, e.g. Prefer). */
  async request<T = unknown>(
    method: string,
    path: string,
    body?: unknown,
    extraHeaders: Record<string, string> = {},
  ): Promise<IdvResponse<T>> {
    const headers: Record<string, string> = {
      ...extraHeaders,
      ...(await this.headers({}, { method, path })),
      accept: 'application/json',
    };
    const init: { method: string; headers: Record<string, string>; body?: string } = {
      method,
      headers,
    };
    if (body !== undefined) {
      headers['content-type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    return jsonResponse<T>(await call(new URL(path, this.options.baseUrl), init));
  }

  /** A request with the credential headers whose answer is kept as bytes (an image). */
  async requestBytes(method: string, path: string) {
    const headers = await this.headers({}, { method, path });
    return callBytes(new URL(path, this.options.baseUrl), { method, headers });
  }

  /** POST with body {data: encrypt(payload)}; a 2xx answer {data, publicKey} is decrypted. */
  async encryptedRequest<T = unknown>(
    method: string,
    path: string,
    payload: unknown,
    extraHeaders: Record<string, string> = {},
  ): Promise<IdvResponse<T>> {
    const res = await this.request<{ data?: string }>(
      method,
      path,
      { data: await this.encryptJson(payload) },
      extraHeaders,
    );
    if (res.status >= 300 || typeof res.body?.data !== 'string') return res as IdvResponse<T>;
    return { ...res, body: await this.decryptJson<T>(res.body.data) };
  }
}
