// Request bodies as the sandbox reads them: JSON and octet-stream on every route, any type as bytes
// on a `raw` route, url-encoded forms where a route asks for them; other types are left unread.
// Limits, statuses and messages are those the sandbox answered under Express's body parsers.
import type { IncomingMessage } from 'node:http';
import { parse as parseForm } from 'node:querystring';
import { TextDecoder } from 'node:util';
import { RequestError } from './requestError.ts';
import type { Route } from './router.ts';

const BODY_LIMIT = 10 * 1024 * 1024;
const FORM_LIMIT = 100 * 1024;
const FORM = 'application/x-www-form-urlencoded';
const JSON_CHARSETS = /^utf-/;
const FORM_CHARSETS = /^(utf-8|iso-8859-1)$/;
// Decoders drop a byte order mark, as the old parsers did.
const UTF8 = new TextDecoder();

export async function readBody(req: IncomingMessage, kind: Route['body']): Promise<unknown> {
  const { headers } = req;
  // Neither a length nor chunks: no body at all, which is not the same as an empty one.
  if (headers['transfer-encoding'] === undefined && headers['content-length'] === undefined)
    return undefined;
  const [type = '', ...parameters] = (headers['content-type'] ?? '').split(';');
  const mediaType = type.trim().toLowerCase();
  if (kind === 'raw' || mediaType === 'application/octet-stream') return bytesOf(req, BODY_LIMIT);
  const charset = charsetOf(parameters);
  if (mediaType === 'application/json') {
    const decoder = decoderFor(charset, JSON_CHARSETS);
    return jsonOf(decoder.decode(await bytesOf(req, BODY_LIMIT)));
  }
  if (kind === 'form' && mediaType === FORM) {
    const decoder = decoderFor(charset, FORM_CHARSETS);
    return { ...parseForm(decoder.decode(await bytesOf(req, FORM_LIMIT))) };
  }
  return undefined;
}

function charsetOf(parameters: string[]): string | undefined {
  for (const parameter of parameters) {
    const [name = '', value = ''] = parameter.split('=');
    if (name.trim().toLowerCase() === 'charset')
      return value.trim().replace(/^"|"$/g, '').toLowerCase();
  }
  return undefined;
}

function decoderFor(charset = 'utf-8', accepted: RegExp): TextDecoder {
  if (charset === 'utf-8') return UTF8;
  try {
    if (accepted.test(charset)) return new TextDecoder(charset);
  } catch {
    // a label TextDecoder does not know
  }
  throw new RequestError(415, `unsupported charset "${charset.toUpperCase()}"`);
}

/** Only the top level of an object or array is a body; an empty body is an empty object. */
function jsonOf(text: string): unknown {
  if (text.length === 0) return {};
  const first = /[^ \t\n\r]/.exec(text)?.[0];
  if (first !== undefined && first !== '{' && first !== '[')
    throw new RequestError(400, `Unexpected token '${first}', "${text}" is not valid JSON`);
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new RequestError(400, err instanceof Error ? err.message : String(err));
  }
}

/** The whole body; one over the limit is read to its end first, so the caller hears the 413. */
async function bytesOf(req: IncomingMessage, limit: number): Promise<Buffer> {
  const encoding = req.headers['content-encoding']?.toLowerCase() ?? 'identity';
  if (encoding !== 'identity')
    throw new RequestError(415, `unsupported content encoding "${encoding}"`);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = Number(req.headers['content-length']) > limit;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      tooLarge ||= size > limit;
      if (!tooLarge) chunks.push(chunk);
    });
    req.once('end', () => {
      if (tooLarge) reject(new RequestError(413, 'request entity too large'));
      else resolve(Buffer.concat(chunks, size));
    });
    req.once('error', reject);
  });
}
