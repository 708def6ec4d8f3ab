// Composition root of the provider sandbox: one HTTP server with a route family per provider
// protocol, deterministic fixtures and fault injection (see faults.ts and PROTOCOLS.md).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { FaultBoard, faultInjection } from './faults.ts';
import { adminRoutes } from './routes/admin.ts';
import { dldvRoutes } from './routes/dldv.ts';
import { documentAuthARoutes } from './routes/documentAuthA.ts';
import { documentAuthBRoutes } from './routes/documentAuthB.ts';
import { documentAuthCRoutes } from './routes/documentAuthC.ts';
import { faceApiRoutes } from './routes/faceApi.ts';
import { faceMatchRoutes } from './routes/faceMatch.ts';
import { identityDataRoutes } from './routes/identityData.ts';
import { livenessRoutes } from './routes/liveness.ts';
import { peopleSearchRoutes } from './routes/peopleSearch.ts';
import { rekognitionRoutes } from './routes/rekognition.ts';
import { reviewRoutes } from './routes/review.ts';

export interface RunningSandbox {
  url: string;
  faults: FaultBoard;
  close(): Promise<void>;
}

export function sandboxApp(faults: FaultBoard): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.use(faultInjection(faults));
  // The signed face API needs its raw bytes, and the detect API takes octet-stream: before JSON.
  app.use(rekognitionRoutes());
  app.use(express.raw({ type: 'application/octet-stream', limit: '10mb' }));
  app.use(express.json({ limit: '10mb' }));
  app.use(adminRoutes(faults));
  for (const routes of [
    dldvRoutes,
    identityDataRoutes,
    livenessRoutes,
    faceApiRoutes,
    faceMatchRoutes,
    reviewRoutes,
    peopleSearchRoutes,
    documentAuthARoutes,
    documentAuthBRoutes,
    documentAuthCRoutes,
  ]) {
    app.use(routes());
  }
  app.use((_req: express.Request, res: express.Response) => {
    res.status(404).json({ error: 'not_found', message: 'no such provider route' });
  });
  // A body that does not parse is the caller's fault, as with a real provider.
  app.use(
    (
      err: { status?: number; message?: string },
      _req: express.Request,
      res: express.Response,
      _next: express.NextFunction,
    ) => {
      res
        .status(err.status ?? 500)
        .json({ error: 'invalid_request', message: err.message ?? 'error' });
    },
  );
  return app;
}

/** port 0 picks a free one; host defaults to loopback. */
export async function startSandbox(port: number, host = '127.0.0.1'): Promise<RunningSandbox> {
  const faults = new FaultBoard();
  const server = createServer(sandboxApp(faults));
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${bound}`,
    faults,
    close: () =>
      new Promise<void>((resolve) => {
        // Hanging fault answers keep sockets open; they end here.
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
