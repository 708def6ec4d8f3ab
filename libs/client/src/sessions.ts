// The SDK's verification sessions and asynchronous verifications: create a session (its url goes
// to the person), poll it to its end, cancel it; start a /verify that answers at once and follow
// it. Each call answers the decrypted body or throws an IdvRequestError with the error body.
import type { SessionRequest, SessionView, VerificationView, VerifyRequest } from '@idv/contracts';
import { bodyOf, IdvRequestError } from './answers.ts';
import type { IdvClient } from './client.ts';

export interface CreatedSession {
  sessionId: string;
  /** the capture page; its token is its only credential: give it to the person only */
  url: string;
  status: 'INPROGRESS';
  state: 'created';
  expiresAt: string;
}

export interface WaitOptions {
  /** default 500 ms, as the vendor helper polls */
  intervalMs?: number;
  /** default 10 minutes */
  timeoutMs?: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function poll<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  what: string,
  options: WaitOptions,
): Promise<T> {
  const until = Date.now() + (options.timeoutMs ?? 600_000);
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() >= until) throw new Error(`${what} did not end in time`);
    await sleep(options.intervalMs ?? 500);
  }
}

/** The session calls of one client (one licence and key pair). */
export class SessionCalls {
  constructor(private readonly client: IdvClient) {}

  async createSession(dvcID: string, sessionRequest: SessionRequest = {}): Promise<CreatedSession> {
    const res = await this.client.request<CreatedSession>(
      'POST',
      '/document_share_session/create',
      {
        data: await this.client.encryptJson({ dvcID, sessionRequest }),
      },
    );
    return bodyOf(res);
  }

  async sessionResult(dvcID: string, sessionId: string): Promise<SessionView> {
    const path = '/document_share_session/result';
    return bodyOf(
      await this.client.encryptedRequest<SessionView>('POST', path, { dvcID, sessionId }),
    );
  }

  /** Polls the result (every 500 ms by default) until the session is no longer INPROGRESS. */
  waitForSession(
    dvcID: string,
    sessionId: string,
    options: WaitOptions = {},
  ): Promise<SessionView> {
    const read = () => this.sessionResult(dvcID, sessionId);
    return poll(read, (view) => view.status !== 'INPROGRESS', `session ${sessionId}`, options);
  }

  async cancelSession(dvcID: string, sessionId: string): Promise<SessionView> {
    const path = '/document_share_session/cancel';
    return bodyOf(
      await this.client.encryptedRequest<SessionView>('POST', path, { dvcID, sessionId }),
    );
  }

  /** POST /verify with `Prefer: respond-async`: answered at once, the work goes on. */
  async verifyAsync(
    request: VerifyRequest,
  ): Promise<{ verificationId: string; status: 'processing' }> {
    const res = await this.client.request<{ verificationId: string; status: 'processing' }>(
      'POST',
      '/verify',
      { data: await this.client.encryptJson(request) },
      { prefer: 'respond-async' },
    );
    return bodyOf(res, 202);
  }

  async verification(verificationId: string): Promise<VerificationView> {
    const res = await this.client.request<{ data?: string }>(
      'GET',
      `/verification/${encodeURIComponent(verificationId)}`,
    );
    const { data } = bodyOf(res);
    if (typeof data !== 'string') throw new IdvRequestError(res.status, res.body);
    return this.client.decryptJson<VerificationView>(data);
  }

  /** Polls a verification until it is completed or failed. */
  waitForVerification(
    verificationId: string,
    options: WaitOptions = {},
  ): Promise<VerificationView> {
    const ended = (view: VerificationView) =>
      view.status === 'completed' || view.status === 'failed';
    return poll(
      () => this.verification(verificationId),
      ended,
      `verification ${verificationId}`,
      options,
    );
  }
}
