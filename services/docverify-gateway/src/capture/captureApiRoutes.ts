// The capture page's API (contracts/http/capture.ts) under /capture-api/: its only credential is
// the page token in `Authorization: Bearer <token>`, never in a URL. Every call is activity.
import {
  CAPTURE_MEDIA_TYPES,
  CAPTURE_SIDES,
  CaptureConsent,
  CaptureDocumentType,
  CaptureImageVerdict,
  CaptureSession,
  CaptureStatus,
  type CaptureSide,
} from '@idv/contracts';
import {
  BadRequest,
  NotFound,
  parseBody,
  PayloadTooLarge,
  TooManyRequests,
  Unauthorized,
  UnsupportedMediaType,
  type Route,
} from '@idv/http';
import express, { type NextFunction, type Request, type Response } from 'express';
import {
  captureImage,
  chooseDocumentType,
  declineSession,
  giveConsent,
  submitCapture,
} from './captureActions.ts';
import { UploadAdmission } from './uploadAdmission.ts';
import type { SessionDeps } from '../sessions/deps.ts';
import { livePageSession, pageView, refuseEnded, sessionOfToken } from './pageSession.ts';
import type { SessionRecord } from '../sessions/sessionRecord.ts';

export interface CaptureApiDeps extends SessionDeps {
  maxImageBytes: number;
}

/** The bearer token of the request, checked for shape only (the session lookup follows). */
function bearerToken(req: Request, res: Response, next: NextFunction): void {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(req.get('authorization') ?? '');
  res.set('Cache-Control', 'no-store');
  if (!match)
    return next(new Unauthorized('the page token is required: Authorization: Bearer <token>'));
  res.locals.pageToken = match[1];
  next();
}

const tokenOf = (res: Response) => res.locals.pageToken as string;
const status = (session: SessionRecord) => ({
  state: session.status,
  redirectUrl: session.redirectUrl,
});

export function captureApiRoutes(deps: CaptureApiDeps): Route[] {
  const guards = [bearerToken];
  /** A POST with no body that moves the session on and answers where it stands. */
  const pageStep = (
    path: string,
    summary: string,
    step: (deps: SessionDeps, token: string) => Promise<SessionRecord>,
  ): Route => ({
    method: 'POST',
    path,
    guards,
    doc: { summary, response: CaptureStatus, errors: [401, 409, 410] },
    handler: async (_req, res) => {
      res.json(status(await step(deps, tokenOf(res))));
    },
  });
  const mediaTypes: readonly string[] = CAPTURE_MEDIA_TYPES;
  /** 415 and 413 before the body is read; the raw parser holds the limit for bodies of no length */
  const imageBody = (req: Request, res: Response, next: NextFunction) => {
    const type = (req.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    const refuse = (err: Error) => (res.set('Connection', 'close'), next(err));
    if (!mediaTypes.includes(type))
      return refuse(new UnsupportedMediaType(`the image must be one of ${mediaTypes.join(', ')}`));
    if (Number(req.get('content-length') ?? 0) > deps.maxImageBytes)
      return refuse(new PayloadTooLarge(`the image is larger than ${deps.maxImageBytes} bytes`));
    next();
  };
  const uploads = new UploadAdmission();
  /**
   * Before a byte of the body is read: the token must name a live session (404, 410 as the
   * handler would answer), and the upload must fit the bytes in flight, one upload of a session
   * sending its body at a time (429 otherwise: uploadAdmission.ts). A refused upload's connection
   * closes rather than reading the body; an admitted one is released when its response closes,
   * finished or aborted.
   */
  const admitUpload = (req: Request, res: Response, next: NextFunction) => {
    void (async () => {
      const session = await sessionOfToken(deps, tokenOf(res));
      refuseEnded(session);
      const length = Number(req.get('content-length') ?? NaN); // none: as much as the parser takes
      const declared = Number.isSafeInteger(length) && length >= 0 ? length : deps.maxImageBytes;
      const entry = uploads.enter(session.id, declared);
      if ('busy' in entry) throw new TooManyRequests(`${entry.busy}: send it again in a moment`, 2);
      req.once('end', entry.bodyRead);
      res.once('close', entry.release);
      if (res.destroyed) entry.release();
    })().then(
      () => next(),
      (err: unknown) => {
        res.set('Connection', 'close');
        next(err);
      },
    );
  };
  const raw = express.raw({ type: () => true, limit: deps.maxImageBytes });
  const base = '/capture-api';

  return [
    {
      method: 'GET',
      path: `${base}/session`,
      guards,
      doc: {
        summary:
          'the session of the page token (Authorization: Bearer): what the page needs; the first call opens it. 404 unknown token, 410 ended (details.state)',
        response: CaptureSession,
        errors: [401, 410],
      },
      handler: async (_req, res) => {
        const session = await livePageSession(deps, tokenOf(res));
        res.json(await pageView(deps, session, tokenOf(res), deps.maxImageBytes));
      },
    },
    {
      method: 'POST',
      path: `${base}/consent`,
      guards,
      doc: {
        summary: 'records the biometric consent with its time and text version',
        body: CaptureConsent,
        response: CaptureStatus,
        errors: [401, 409, 410],
      },
      handler: async (req, res) => {
        const body = parseBody(CaptureConsent, req.body);
        res.json(status(await giveConsent(deps, tokenOf(res), body.textVersion)));
      },
    },
    pageStep(
      `${base}/decline`,
      'the person declines before submitting: the session ends as declined (E_IDV_SESSION_DECLINED); 409 once submitted',
      declineSession,
    ),
    {
      method: 'POST',
      path: `${base}/document-type`,
      guards,
      doc: {
        summary: 'the document the person chose, when the session did not fix one (409 if it did)',
        body: CaptureDocumentType,
        response: CaptureStatus,
        errors: [401, 409, 410],
      },
      handler: async (req, res) => {
        const body = parseBody(CaptureDocumentType, req.body);
        res.json(status(await chooseDocumentType(deps, tokenOf(res), body.documentType)));
      },
    },
    {
      method: 'PUT',
      path: `${base}/images/:side`,
      guards: [...guards, imageBody, admitUpload, raw],
      jsonBody: false,
      doc: {
        summary:
          'one capture of a side (front, back, passport, selfie), the raw image as the body (image/jpeg, image/png or image/webp, at most SESSION_IMAGE_MAX_BYTES): checked, kept if it passes, counted against the retries. 409: side not in the journey or no retakes left; 413 too large; 415 other media types; 429 (Retry-After) while another upload of the session, or too many uploads of the gateway, are being read',
        response: CaptureImageVerdict,
        errors: [401, 409, 410, 413, 415, 429],
      },
      handler: async (req, res) => {
        const side = String(req.params.side);
        if (!(CAPTURE_SIDES as readonly string[]).includes(side))
          throw new NotFound(`no side ${side}: one of ${CAPTURE_SIDES.join(', ')}`);
        const bytes = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
        if (bytes.length === 0) throw new BadRequest('the body must be the image');
        res.json(await captureImage(deps, tokenOf(res), side as CaptureSide, bytes));
      },
    },
    pageStep(
      `${base}/submit`,
      'submits the captures: processing starts (409 while a side of the journey still lacks an accepted image and has retakes left, unless another side is out of retakes unaccepted: the session is sure to fail, capture_incomplete)',
      submitCapture,
    ),
    {
      method: 'GET',
      path: `${base}/status`,
      guards,
      doc: {
        summary:
          "the session's state, ended ones too: the final screen and the desktop that handed off poll it",
        response: CaptureStatus,
        errors: [401],
      },
      handler: async (_req, res) => {
        const session = await sessionOfToken(deps, tokenOf(res));
        await deps.sessions.touch(session.id);
        res.json(status(session));
      },
    },
  ];
}
