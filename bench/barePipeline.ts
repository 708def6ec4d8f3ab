// The shape of POST /verify with none of its work: an Express gateway asks a worker over a
// RabbitMQ request-reply (direct reply-to, as libs/broker does), and the worker makes one HTTP
// call to a provider with the connector worker's own client (undici's request()) and replies. No
// credentials, crypto, validation or events. Run as its own process per role, like the real
// pipeline: `node --import tsx bench/barePipeline.ts gateway|worker|provider` with BARE_PORT,
// BARE_QUEUE, BARE_PROVIDER_URL and AMQP_URL. With BARE_DATABASE_URL the gateway also makes the
// writes the guarantees need (issue 25, "fast path, restated"): the request id into a replay table
// before the call, committed as the platform's replay guard commits it (synchronous_commit off),
// and after the reply one durable commit (synchronous_commit on) of a result row and an event row.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { connect, type ConsumeMessage } from 'amqplib';
import express from 'express';
import pg from 'pg';
import { Agent, request } from 'undici';

const REPLY_TO = 'amq.rabbitmq.reply-to';
const env = (name: string) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
};

async function channel() {
  const connection = await connect(env('AMQP_URL'), { noDelay: true });
  const opened = await connection.createChannel();
  await opened.assertQueue(env('BARE_QUEUE'), { durable: false, autoDelete: true });
  return opened;
}

function provider(): void {
  createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ similarity: 99, match: true }));
    });
  }).listen(Number(env('BARE_PORT')), '127.0.0.1');
}

async function worker(): Promise<void> {
  const jobs = await channel();
  const providerUrl = env('BARE_PROVIDER_URL');
  const agent = new Agent({ connections: null, allowH2: false });
  await jobs.prefetch(64);
  await jobs.consume(env('BARE_QUEUE'), (message) => {
    if (!message) return;
    void (async () => {
      // a failed call is answered, not dropped: the gateway turns it into a 502
      const reply = await request(providerUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: message.content,
        dispatcher: agent,
      }).then(
        async (res) => Buffer.from(await res.body.arrayBuffer()),
        (err: Error) => Buffer.from(JSON.stringify({ error: err.message })),
      );
      jobs.sendToQueue(message.properties.replyTo as string, reply, {
        correlationId: message.properties.correlationId as string,
      });
      jobs.ack(message);
    })();
  });
}

const TABLES = `CREATE SCHEMA IF NOT EXISTS bare;
  CREATE TABLE IF NOT EXISTS bare.replay (uuid text PRIMARY KEY, expires_at timestamptz NOT NULL);
  CREATE TABLE IF NOT EXISTS bare.results (id uuid PRIMARY KEY, result jsonb NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now());
  CREATE TABLE IF NOT EXISTS bare.events (id uuid PRIMARY KEY, result_id uuid NOT NULL,
    body jsonb NOT NULL, created_at timestamptz NOT NULL DEFAULT now());`;

/** The writes of a /verify: the replay insert before the call, result and event after it. */
interface Writes {
  replay(uuid: string): Promise<void>;
  commit(resultId: string, result: unknown): Promise<void>;
}

async function databaseWrites(url: string): Promise<Writes> {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  await pool.query(TABLES);
  return {
    async replay(uuid) {
      await pool.query(
        `INSERT INTO bare.replay (uuid, expires_at)
          SELECT $1, now() + interval '5 minutes'
          FROM (SELECT set_config('synchronous_commit', 'off', true)) AS relaxed`,
        [uuid],
      );
    },
    async commit(resultId, result) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        await client.query(`SET LOCAL synchronous_commit = on`);
        await client.query('INSERT INTO bare.results (id, result) VALUES ($1, $2)', [
          resultId,
          result,
        ]);
        await client.query('INSERT INTO bare.events (id, result_id, body) VALUES ($1, $2, $3)', [
          randomUUID(),
          resultId,
          { type: 'E_IDV_VERIFICATION_COMPLETED', resultId },
        ]);
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw err;
      } finally {
        client.release();
      }
    },
  };
}

async function gateway(): Promise<void> {
  const databaseUrl = process.env.BARE_DATABASE_URL;
  const writes = databaseUrl ? await databaseWrites(databaseUrl) : undefined;
  const rpc = await channel();
  const pending = new Map<string, (reply: unknown) => void>();
  await rpc.consume(
    REPLY_TO,
    (message: ConsumeMessage | null) => {
      const answer = message && pending.get(message.properties.correlationId as string);
      if (!message || !answer) return;
      pending.delete(message.properties.correlationId as string);
      answer(JSON.parse(message.content.toString()));
    },
    { noAck: true },
  );
  const app = express();
  app.use(express.json({ limit: '1mb' }));
  app.get('/healthz', (_req, res) => res.json({ status: 'ok' }));
  app.post('/verify', async (req, res) => {
    const correlationId = randomUUID();
    await writes?.replay(correlationId);
    const reply = new Promise((resolve) => pending.set(correlationId, resolve));
    rpc.sendToQueue(env('BARE_QUEUE'), Buffer.from(JSON.stringify(req.body)), {
      correlationId,
      replyTo: REPLY_TO,
    });
    const answer = (await reply) as { error?: string };
    await writes?.commit(correlationId, answer);
    res.status(answer.error ? 502 : 200).json(answer);
  });
  app.listen(Number(env('BARE_PORT')), '127.0.0.1');
}

const roles: Record<string, () => void | Promise<void>> = { gateway, worker, provider };
const role = roles[process.argv[2] ?? ''];
if (!role) throw new Error('usage: barePipeline.ts gateway|worker|provider');
await role();
