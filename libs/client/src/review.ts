// The SDK's review cases (DESIGN 2.5): the queue, a case, its person's data and images (reads an
// operator or a manager licence makes; the data's are audited), the reason codes, and what only an
// operator does: claim, release, note, decide. The same calls serve an IdvClient (the three
// credential headers of a licence) and an OperatorClient (an operator's bearer token).
import type {
  ReviewCase,
  ReviewCaseData,
  ReviewCaseList,
  ReviewCaseState,
  ReviewDecisionBody,
  ReviewReasons,
  ReviewStepAnswer,
} from '@idv/contracts';
import { bodyOf, IdvRequestError } from './answers.ts';
import { call, callBytes, jsonResponse, type IdvResponse } from './transport.ts';

/** What the review calls need of a client: JSON requests and byte answers, with its credentials. */
export interface ReviewTransport {
  request<T>(method: string, path: string, body?: unknown): Promise<IdvResponse<T>>;
  requestBytes(
    method: string,
    path: string,
  ): Promise<{ status: number; headers: Headers; bytes: Buffer }>;
}

export interface CaseListOptions {
  state?: ReviewCaseState;
  /** an operator's username */
  assignee?: string;
  /** live cases past their due time only */
  overdue?: boolean;
  limit?: number;
  /** `next` of the previous page */
  cursor?: string;
}

const casesPath = (communityId: string) =>
  `/review/community/${encodeURIComponent(communityId)}/cases`;
const casePath = (communityId: string, caseId: string) =>
  `${casesPath(communityId)}/${encodeURIComponent(caseId)}`;

export class ReviewCalls {
  constructor(private readonly client: ReviewTransport) {}

  private async json<T>(method: string, path: string, body?: unknown): Promise<T> {
    return bodyOf(await this.client.request<T>(method, path, body));
  }

  reasons(): Promise<ReviewReasons> {
    return this.json('GET', '/review/reasons');
  }

  cases(communityId: string, options: CaseListOptions = {}): Promise<ReviewCaseList> {
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries(options))
      if (value !== undefined) query.set(name, String(value));
    const search = query.size > 0 ? `?${query.toString()}` : '';
    return this.json('GET', `${casesPath(communityId)}${search}`);
  }

  case(communityId: string, caseId: string): Promise<ReviewCase> {
    return this.json('GET', casePath(communityId, caseId));
  }

  /** The person's data of the case (audited). */
  caseData(communityId: string, caseId: string): Promise<ReviewCaseData> {
    return this.json('GET', `${casePath(communityId, caseId)}/data`);
  }

  /** One image of the case by name (front, back, passport, selfie; audited). */
  async caseImage(communityId: string, caseId: string, name: string) {
    const path = `${casePath(communityId, caseId)}/images/${encodeURIComponent(name)}`;
    const res = await this.client.requestBytes('GET', path);
    if (res.status !== 200)
      throw new IdvRequestError(res.status, JSON.parse(res.bytes.toString('utf8') || '{}'));
    return { contentType: res.headers.get('content-type') ?? '', bytes: res.bytes };
  }

  claim(communityId: string, caseId: string): Promise<ReviewStepAnswer> {
    return this.json('POST', `${casePath(communityId, caseId)}/claim`);
  }

  release(communityId: string, caseId: string): Promise<ReviewStepAnswer> {
    return this.json('POST', `${casePath(communityId, caseId)}/release`);
  }

  addNote(communityId: string, caseId: string, text: string): Promise<ReviewStepAnswer> {
    return this.json('POST', `${casePath(communityId, caseId)}/notes`, { text });
  }

  /** approve, decline or resubmit (its answer then has resubmission: {sessionId, url, expiresAt}). */
  decide(
    communityId: string,
    caseId: string,
    decision: ReviewDecisionBody,
  ): Promise<ReviewStepAnswer> {
    return this.json('POST', `${casePath(communityId, caseId)}/decision`, decision);
  }
}

export interface OperatorClientOptions {
  /** base URL of the docverify gateway */
  baseUrl: string;
  /** the operator's access token from the operators' issuer (scope operator) */
  accessToken: string;
}

/** An operator's client: every call with `Authorization: Bearer <access token>`. */
export class OperatorClient implements ReviewTransport {
  readonly review: ReviewCalls;

  constructor(private readonly options: OperatorClientOptions) {
    this.review = new ReviewCalls(this);
  }

  private headers(): Record<string, string> {
    return { authorization: `Bearer ${this.options.accessToken}`, accept: 'application/json' };
  }

  async request<T>(method: string, path: string, body?: unknown): Promise<IdvResponse<T>> {
    const headers = this.headers();
    const init = { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) };
    if (body !== undefined) headers['content-type'] = 'application/json';
    return jsonResponse<T>(await call(new URL(path, this.options.baseUrl), init));
  }

  requestBytes(method: string, path: string) {
    return callBytes(new URL(path, this.options.baseUrl), { method, headers: this.headers() });
  }
}
