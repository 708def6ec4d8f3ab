// The page's calls to /capture-api/* with the page token as `Authorization: Bearer`. Every answer
// comes back as a tagged value (ok, or why not), so the screens never see a thrown fetch error. A
// photo goes up through XMLHttpRequest, the one browser API that reports upload progress, with a
// time limit from its size and a way to cancel it.
import type {
  CaptureImageVerdict,
  CaptureSession,
  CaptureSide,
  SessionDocumentType,
  SessionState,
} from './strings/types.ts';

export interface CaptureStatus {
  state: SessionState;
  redirectUrl: string | null;
}

export type Failure =
  /** no such link (404, or no token at all: 401) */
  | { kind: 'unknown' }
  /** the session ended (410) in this state */
  | { kind: 'ended'; state: SessionState }
  /** 409: not allowed now (e.g. no retakes left), with the server's message */
  | { kind: 'conflict'; message: string }
  | { kind: 'tooLarge' }
  | { kind: 'wrongType' }
  | { kind: 'network' }
  /** an upload that ran past its time limit, or that the person cancelled */
  | { kind: 'timeout' }
  | { kind: 'cancelled' }
  | { kind: 'server'; status: number };

export type Answer<T> = { ok: true; value: T } | { ok: false; failure: Failure };

interface ErrorBody {
  message?: string;
  details?: { state?: SessionState };
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return {};
  }
}

function failureOf(status: number, body: ErrorBody): Failure {
  switch (status) {
    case 401:
    case 404:
      return { kind: 'unknown' };
    case 410:
      return { kind: 'ended', state: body.details?.state ?? 'expired' };
    case 409:
      return { kind: 'conflict', message: body.message ?? '' };
    case 413:
      return { kind: 'tooLarge' };
    case 415:
      return { kind: 'wrongType' };
    default:
      return { kind: 'server', status };
  }
}

/** An upload's time limit: a minute, more for a big photo on a slow line (16 kB/s). */
export const uploadTimeoutMs = (bytes: number): number => Math.max(60_000, bytes / 16);

export interface UploadOptions {
  onProgress?: (sent: number, total: number) => void;
  signal?: AbortSignal;
}

export class CaptureApi {
  constructor(
    private readonly token: string,
    private readonly base = '/capture-api',
  ) {}

  private async call<T>(method: string, path: string, body?: object): Promise<Answer<T>> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.token}` };
    let payload: BodyInit | undefined;
    if (body !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    let res: Response;
    try {
      res = await fetch(`${this.base}${path}`, {
        method,
        headers,
        cache: 'no-store',
        ...(payload === undefined ? {} : { body: payload }),
      });
    } catch {
      return { ok: false, failure: { kind: 'network' } };
    }
    if (!res.ok)
      return {
        ok: false,
        failure: failureOf(res.status, (await res.json().catch(() => ({}))) as ErrorBody),
      };
    return { ok: true, value: (await res.json()) as T };
  }

  private upload<T>(path: string, body: Blob, options: UploadOptions): Promise<Answer<T>> {
    return new Promise((resolve) => {
      const failed = (failure: Failure) => resolve({ ok: false, failure });
      if (options.signal?.aborted) return failed({ kind: 'cancelled' });
      const xhr = new XMLHttpRequest();
      xhr.open('PUT', `${this.base}${path}`);
      xhr.setRequestHeader('authorization', `Bearer ${this.token}`);
      xhr.setRequestHeader('content-type', body.type);
      xhr.timeout = uploadTimeoutMs(body.size);
      xhr.upload.onprogress = (e) =>
        options.onProgress?.(e.loaded, e.lengthComputable ? e.total : body.size);
      xhr.onload = () => {
        const answer = parsed(xhr.responseText);
        if (xhr.status >= 200 && xhr.status < 300) resolve({ ok: true, value: answer as T });
        else failed(failureOf(xhr.status, answer as ErrorBody));
      };
      xhr.onerror = () => failed({ kind: 'network' });
      xhr.ontimeout = () => failed({ kind: 'timeout' });
      xhr.onabort = () => failed({ kind: 'cancelled' });
      options.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
      xhr.send(body);
    });
  }

  session(): Promise<Answer<CaptureSession>> {
    return this.call('GET', '/session');
  }
  consent(textVersion: string): Promise<Answer<CaptureStatus>> {
    return this.call('POST', '/consent', { accepted: true, textVersion });
  }
  decline(): Promise<Answer<CaptureStatus>> {
    return this.call('POST', '/decline');
  }
  documentType(documentType: SessionDocumentType): Promise<Answer<CaptureStatus>> {
    return this.call('POST', '/document-type', { documentType });
  }
  image(
    side: CaptureSide,
    image: Blob,
    options: UploadOptions = {},
  ): Promise<Answer<CaptureImageVerdict>> {
    return this.upload(`/images/${side}`, image, options);
  }
  submit(): Promise<Answer<CaptureStatus>> {
    return this.call('POST', '/submit');
  }
  status(): Promise<Answer<CaptureStatus>> {
    return this.call('GET', '/status');
  }
}
