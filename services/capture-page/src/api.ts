// The page's calls to /capture-api/* with the page token as `Authorization: Bearer`. Every answer
// comes back as a tagged value (ok, or why not), so the screens never see a thrown fetch error.
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
  | { kind: 'server'; status: number };

export type Answer<T> = { ok: true; value: T } | { ok: false; failure: Failure };

interface ErrorBody {
  message?: string;
  details?: { state?: SessionState };
}

async function failureOf(res: Response): Promise<Failure> {
  const body = (await res.json().catch(() => ({}))) as ErrorBody;
  switch (res.status) {
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
      return { kind: 'server', status: res.status };
  }
}

export class CaptureApi {
  constructor(
    private readonly token: string,
    private readonly base = '/capture-api',
  ) {}

  private async call<T>(method: string, path: string, body?: Blob | object): Promise<Answer<T>> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.token}` };
    let payload: BodyInit | undefined;
    if (body instanceof Blob) {
      headers['content-type'] = body.type;
      payload = body;
    } else if (body !== undefined) {
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
    if (!res.ok) return { ok: false, failure: await failureOf(res) };
    return { ok: true, value: (await res.json()) as T };
  }

  session(): Promise<Answer<CaptureSession>> {
    return this.call('GET', '/session');
  }
  consent(textVersion: string): Promise<Answer<CaptureStatus>> {
    return this.call('POST', '/consent', { accepted: true, textVersion });
  }
  documentType(documentType: SessionDocumentType): Promise<Answer<CaptureStatus>> {
    return this.call('POST', '/document-type', { documentType });
  }
  image(side: CaptureSide, image: Blob): Promise<Answer<CaptureImageVerdict>> {
    return this.call('PUT', `/images/${side}`, image);
  }
  submit(): Promise<Answer<CaptureStatus>> {
    return this.call('POST', '/submit');
  }
  status(): Promise<Answer<CaptureStatus>> {
    return this.call('GET', '/status');
  }
}
