// What every sign-in page and form handler starts from: the interaction oidc-provider keeps for
// this browser, the community's settings, the page frame in the person's language, and how to
// answer with a page (status, CSP and the headers pages carry).
import type { Request, Response } from 'express';
import type { Interaction } from 'oidc-provider';
import { BadRequest } from '@idv/http';
import type { PageAssets } from '../pages/assets.ts';
import { PAGE_HEADERS, pageCsp, type PageFrame } from '../pages/layout.ts';
import { messageScreen } from '../pages/screens.ts';
import { pickLocale, translator } from '../pages/strings.ts';
import type { CommunityIssuer } from '../providerCache.ts';
import type { SignInSettings, SignInSettingsStore } from '../store/signInSettings.ts';

export interface SignInRequest {
  req: Request;
  res: Response;
  found: CommunityIssuer;
  interaction: Interaction;
  settings: SignInSettings;
  frame: PageFrame;
  clientId: string;
  clientName: string;
  /** /community/{name}/v1/interaction/{uid}, the base of the page's forms */
  here: string;
  send(page: string, status?: number): void;
}

export interface SignInRequestDeps {
  settings: SignInSettingsStore;
  assets: PageAssets;
}

export function pageFrame(
  deps: SignInRequestDeps,
  req: Request,
  found: CommunityIssuer,
  settings: SignInSettings,
  uiLocales?: unknown,
): PageFrame {
  const locale = pickLocale(uiLocales, req.get('accept-language'));
  return {
    t: translator(locale),
    locale,
    base: `${req.baseUrl}/v1`,
    assetVersion: deps.assets.version,
    community: {
      displayName: settings.displayName ?? found.community.name,
      logoVersion: settings.logoVersion,
      brandVersion: settings.accentColor
        ? `${settings.accentColor.slice(1)}${settings.logoVersion ?? ''}`
        : null,
    },
  };
}

function sendPage(res: Response, page: string, status: number, redirectUri?: unknown) {
  res
    .status(status)
    .type('html')
    .set({ ...PAGE_HEADERS, 'Content-Security-Policy': pageCsp(redirectUri) })
    .send(page);
}

/** An interaction that has ended, expired or belongs to another browser: a page saying so. */
export class SignInExpired extends BadRequest {
  override name = 'SignInExpired';
}

export async function signInRequest(
  deps: SignInRequestDeps,
  req: Request,
  res: Response,
): Promise<SignInRequest> {
  const found = res.locals.issuer as CommunityIssuer;
  const interaction = await found.provider.interactionDetails(req, res).catch(() => undefined);
  if (!interaction || interaction.uid !== req.params.uid) {
    throw new SignInExpired(
      'this sign-in has expired or is unknown; start again from the application',
    );
  }
  const settings = await deps.settings.get(found.community);
  const clientId = String(interaction.params.client_id ?? '');
  const client = await found.provider.Client.find(clientId).catch(() => undefined);
  return {
    req,
    res,
    found,
    interaction,
    settings,
    frame: pageFrame(deps, req, found, settings, interaction.params.ui_locales),
    clientId,
    clientName: client?.clientName ?? clientId,
    here: `${req.baseUrl}/v1/interaction/${interaction.uid}`,
    send: (page, status = 200) => sendPage(res, page, status, interaction.params.redirect_uri),
  };
}

/**
 * The refusal of a sign-in that expired, as a page for a browser (which asked for HTML) and as
 * the platform's error body for anyone else.
 */
export function expiredPage(deps: SignInRequestDeps) {
  return async (err: unknown, req: Request, res: Response, next: (err: unknown) => void) => {
    if (!(err instanceof SignInExpired) || req.accepts(['json', 'html']) !== 'html')
      return next(err);
    const found = res.locals.issuer as CommunityIssuer;
    const settings = await deps.settings.get(found.community).catch(() => undefined);
    if (!settings) return next(err);
    const frame = pageFrame(deps, req, found, settings);
    sendPage(res, messageScreen(frame, frame.t('expiredTitle'), frame.t('expired')), 400);
  };
}
