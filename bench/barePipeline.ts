// The shape of POST /verify with none of its work: an Express gateway asks a worker over a
// RabbitMQ request-reply (direct reply-to, as libs/broker does), and the worker makes one HTTP
// call to a provider with the connector worker's own client (undici's request()) and replies. No
// credentials, crypto, validation, database or events. Run as its own process per role, like the
// real pipeline: `node --import tsx bench/barePipeline.ts gateway|worker|provider` with BARE_PORT,
// BARE_QUEUE, BARE_PROVIDER_URL and AMQP_URL.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { connect, type ConsumeMessage } from 'amqplib';
import express from 'express';
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

async function gateway(): Promise<void> {
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
    const reply = new Promise((resolve) => pending.set(correlationId, resolve));
    rpc.sendToQueue(env('BARE_QUEUE'), Buffer.from(JSON.stringify(req.body)), {
      correlationId,
      replyTo: REPLY_TO,
    });
    const answer = (await reply) as { error?: string };
    res.status(answer.error ? 502 : 200).json(answer);
  });
  app.listen(Number(env('BARE_PORT')), '127.0.0.1');
}

const roles: Record<string, () => void | Promise<void>> = { gateway, worker, provider };
const role = roles[process.argv[2] ?? ''];
if (!role) throw new Error('usage: barePipeline.ts gateway|worker|provider');
await role();
