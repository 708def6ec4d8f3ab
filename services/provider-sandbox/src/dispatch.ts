// The sandbox's one request handler: fault prefixes and faults first, then the route's body and
// its answer. Nothing else runs per request (no ETag, no middleware chain): the benchmarks measure
// the platform, and the sandbox shares its CPU.
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { parse as parseQuery } from 'node:querystring';
import { faultAnswer, isFaultFree, stripFaultPrefixes, type FaultBoard } from './faults.ts';
import { readBody } from './readBody.ts';
import { RequestError } from './requestError.ts';
import { NOT_FOUND, type Answer, type RouteTable } from './router.ts';

const JSON_TYPE = 'application/json; charset=utf-8';

export function dispatcher(faults: FaultBoard, routes: RouteTable): RequestListener {
  return (req, res) => {
    serve(faults, routes, req, res).catch((err: unknown) => {
      if (!res.headersSent) send(res, failure(err));
    });
  };
}

async function serve(
  faults: FaultBoard,
  routes: RouteTable,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const url = req.url ?? '/';
  const target = stripFaultPrefixes(url);
  if (!isFaultFree(target.url)) {
    // in flight until the response closes, however it ends
    res.once('close', faults.enter(target.scope));
    const faulted = await faultAnswer(faults, target);
    if (faulted === 'hang') return; // the socket stays open until the caller gives up
    if (faulted) return send(res, faulted);
  }
  const method = req.method ?? 'GET';
  const queryAt = target.url.indexOf('?');
  const path = queryAt === -1 ? target.url : target.url.slice(0, queryAt);
  const found = routes.find(method, path);
  // Read even for an unknown route: a body that does not parse is refused before the 404.
  const body = await readBody(req, found?.route.body);
  if (!found) return send(res, NOT_FOUND);
  const query = queryAt === -1 ? {} : parseQuery(target.url.slice(queryAt + 1));
  const call = { method, path, url, params: found.params, query, headers: req.headers, body };
  send(res, await found.route.handle(call));
}

/** A request the sandbox cannot take is the caller's fault, as with a real provider. */
function failure(err: unknown): Answer {
  const status = err instanceof RequestError ? err.status : 500;
  const message = err instanceof Error ? err.message : 'error';
  return { status, body: { error: 'invalid_request', message } };
}

function send(res: ServerResponse, answer: Answer): void {
  if (answer.body === undefined) {
    res.writeHead(answer.status, answer.headers).end();
    return;
  }
  const text = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
  res.writeHead(answer.status, {
    'content-type': JSON_TYPE,
    ...answer.headers,
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}
