// The broker's Prometheus metrics, registered once per registry even when several brokers share it.
import { Counter, Histogram, type Registry } from '@idv/observability';

export interface BrokerMetrics {
  rpcDuration: Histogram<'queue' | 'outcome'>;
  rpcLateReplies: Counter<'queue'>;
  messagesHandled: Counter<'queue' | 'outcome'>;
}

export function brokerMetrics(registry: Registry | undefined): BrokerMetrics | undefined {
  if (!registry) return undefined;
  return {
    rpcDuration: reuse(
      registry,
      'broker_rpc_duration_seconds',
      () =>
        new Histogram({
          name: 'broker_rpc_duration_seconds',
          help: 'Request-reply duration by target queue and outcome (ok, error, timeout, unavailable)',
          labelNames: ['queue', 'outcome'],
          buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
          registers: [registry],
        }),
    ),
    rpcLateReplies: reuse(
      registry,
      'broker_rpc_late_replies_total',
      () =>
        new Counter({
          name: 'broker_rpc_late_replies_total',
          help: 'Replies that arrived after their request had timed out, dropped',
          labelNames: ['queue'],
          registers: [registry],
        }),
    ),
    messagesHandled: reuse(
      registry,
      'broker_messages_handled_total',
      () =>
        new Counter({
          name: 'broker_messages_handled_total',
          help: 'Consumed messages by queue and outcome (ack, replied_error, dead_letter, poison, requeued)',
          labelNames: ['queue', 'outcome'],
          registers: [registry],
        }),
    ),
  };
}

function reuse<M>(registry: Registry, name: string, create: () => M): M {
  return (registry.getSingleMetric(name) as M | undefined) ?? create();
}
