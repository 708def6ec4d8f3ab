// Process entry of the provider sandbox (SANDBOX_PORT, default 8090; SANDBOX_HOST, default 127.0.0.1).
import { startSandbox } from './start.ts';

const port = Number(process.env.SANDBOX_PORT ?? 8090);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`invalid configuration: SANDBOX_PORT '${process.env.SANDBOX_PORT}' is not a port`);
  process.exit(1);
}
const sandbox = await startSandbox(port, process.env.SANDBOX_HOST ?? '127.0.0.1');
console.error(`provider sandbox listening on ${sandbox.url}`);
const stop = () => void sandbox.close().then(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
