// Composition root of the provider sandbox: one HTTP server with a route family per provider
// protocol, deterministic fixtures and fault injection (see faults.ts and README.md).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dispatcher } from './dispatch.ts';
import { FaultBoard } from './faults.ts';
import { RouteTable, type Route } from './router.ts';
import { adminRoutes } from './routes/admin.ts';
import { dldvRoutes } from './routes/dldv.ts';
import { documentAuthARoutes } from './routes/documentAuthA.ts';
import { documentAuthBRoutes } from './routes/documentAuthB.ts';
import { documentAuthCRoutes } from './routes/documentAuthC.ts';
import { faceApiRoutes } from './routes/faceApi.ts';
import { faceMatchRoutes } from './routes/faceMatch.ts';
import { identityDataRoutes } from './routes/identityData.ts';
import { livenessRoutes } from './routes/liveness.ts';
import { PendingReviews } from './routes/pendingReviews.ts';
import { peopleSearchRoutes } from './routes/peopleSearch.ts';
import { rekognitionRoutes } from './routes/rekognition.ts';
import { reviewRoutes } from './routes/review.ts';

export interface RunningSandbox {
  url: string;
  faults: FaultBoard;
  close(): Promise<void>;
}

/** Every route family, each with its own state (tokens, faces, reviews) for this sandbox. */
function sandboxRoutes(faults: FaultBoard, reviews: PendingReviews): Route[] {
  return [
    adminRoutes(faults),
    rekognitionRoutes(),
    dldvRoutes(),
    identityDataRoutes(),
    livenessRoutes(),
    faceApiRoutes(),
    faceMatchRoutes(),
    reviewRoutes(reviews),
    peopleSearchRoutes(),
    documentAuthARoutes(),
    documentAuthBRoutes(),
    documentAuthCRoutes(),
  ].flat();
}

/** port 0 picks a free one; host defaults to loopback. */
export async function startSandbox(port: number, host = '127.0.0.1'): Promise<RunningSandbox> {
  const faults = new FaultBoard();
  const reviews = new PendingReviews();
  const server = createServer(dispatcher(faults, new RouteTable(sandboxRoutes(faults, reviews))));
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${bound}`,
    faults,
    close: () =>
      new Promise<void>((resolve) => {
        // no review decided after the stop calls anyone back
        reviews.close();
        // Hanging fault answers keep sockets open; they end here.
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
