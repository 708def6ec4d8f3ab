// A person's browser over plain HTTP for sign-in tests: a cookie jar that honours cookie paths
// (oidc-provider scopes each interaction's cookie to its page), forms posted as a browser posts
// them, and redirects followed on the issuer until the client's redirect_uri.

export interface Answer {
  status: number;
  url: string;
  headers: Headers;
  text: string;
  /** where a 3xx sends the browser, absolute */
  location?: string;
}

interface Cookie {
  name: string;
  value: string;
  path: string;
}

/** Any sign-in request answers within this; a hang fails the test instead of timing it out. */
const ANSWER_WITHIN_MS = 15_000;

export class HttpBrowser {
  private readonly cookies = new Map<string, Cookie>();

  /**
   * @param headers sent with every request, e.g. X-Forwarded-For or Accept-Language
   * @param seen called with every answer (e.g. to check every page's headers at the end)
   */
  constructor(
    readonly headers: Record<string, string> = {},
    private readonly seen?: (answer: Answer) => void,
  ) {}

  /** The Cookie header this browser sends to `href`. */
  cookiesFor(href: string): string {
    return this.cookieHeader(new URL(href));
  }

  private cookieHeader(url: URL): string {
    return [...this.cookies.values()]
      .filter(
        (c) => url.pathname === c.path || url.pathname.startsWith(c.path.replace(/\/?$/, '/')),
      )
      .sort((a, b) => b.path.length - a.path.length)
      .map((c) => `${c.name}=${c.value}`)
      .join('; ');
  }

  private keep(url: URL, setCookies: string[]): void {
    for (const line of setCookies) {
      const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
      const at = pair.indexOf('=');
      const name = pair.slice(0, at);
      const value = pair.slice(at + 1);
      const attribute = (key: string) =>
        attributes.find((a) => a.toLowerCase().startsWith(`${key}=`))?.slice(key.length + 1);
      const path = attribute('path') ?? (url.pathname.replace(/\/[^/]*$/, '') || '/');
      const expires = attribute('expires');
      const gone =
        !value || attribute('max-age') === '0' || (expires && Date.parse(expires) < Date.now());
      if (gone) this.cookies.delete(`${name}|${path}`);
      else this.cookies.set(`${name}|${path}`, { name, value, path });
    }
  }

  /** One request, redirects not followed. */
  async request(
    href: string,
    init: {
      method?: string;
      form?: Record<string, string> | string;
      headers?: Record<string, string>;
    } = {},
  ): Promise<Answer> {
    const url = new URL(href);
    const cookie = this.cookieHeader(url);
    const body =
      init.form === undefined
        ? undefined
        : typeof init.form === 'string'
          ? init.form
          : new URLSearchParams(init.form).toString();
    const res = await fetch(url, {
      method: init.method ?? (body === undefined ? 'GET' : 'POST'),
      redirect: 'manual',
      signal: AbortSignal.timeout(ANSWER_WITHIN_MS),
      headers: {
        ...this.headers,
        ...(body !== undefined ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        ...(cookie ? { cookie } : {}),
        ...init.headers,
      },
      ...(body !== undefined ? { body } : {}),
    });
    this.keep(url, res.headers.getSetCookie());
    const location = res.headers.get('location');
    const answer = {
      status: res.status,
      url: url.href,
      headers: res.headers,
      text: await res.text(),
      ...(location ? { location: new URL(location, url).href } : {}),
    };
    this.seen?.(answer);
    return answer;
  }

  /** Follows redirects from `answer` while they stay away from `stopAt` (the redirect_uri). */
  async follow(answer: Answer, stopAt: string): Promise<Answer> {
    let current = answer;
    for (let hops = 0; current.location && !current.location.startsWith(stopAt); hops++) {
      if (hops > 10) throw new Error(`too many redirects from ${answer.url}`);
      current = await this.request(current.location);
    }
    return current;
  }

  /** A request and the redirects after it, up to `stopAt`. */
  async go(
    href: string,
    stopAt: string,
    init: Parameters<HttpBrowser['request']>[1] = {},
  ): Promise<Answer> {
    return this.follow(await this.request(href, init), stopAt);
  }
}

/** The text of the page's alert (role="alert" with a message), if any. */
export function alertOf(page: string): string | undefined {
  return /<p class="alert" role="alert">([^<]*(?:<strong>[^<]*<\/strong>[^<]*)*)<\/p>/
    .exec(page)?.[1]
    ?.replace(/<\/?strong>/g, '');
}

/** The page's first <h1>. */
export const headingOf = (page: string): string | undefined => /<h1>([^<]*)<\/h1>/.exec(page)?.[1];

/** Decodes the HTML entities escapeHtml writes (&#NN;) and the named few. */
export const unescapeHtml = (text: string): string =>
  text
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)))
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** The WebAuthn options of the page's passkey form (data-options), if it has one. */
export function passkeyOptionsOf(
  page: string,
): { action: string; options: Record<string, unknown> } | undefined {
  const form =
    /<form class="passkey" method="post" action="([^"]*)" data-passkey="\w+" data-options="([^"]*)"/.exec(
      page,
    );
  if (!form) return undefined;
  return {
    action: unescapeHtml(form[1]!),
    options: JSON.parse(unescapeHtml(form[2]!)) as Record<string, unknown>,
  };
}
