// Public surface of libs/broker: the reconnecting broker, its options and its typed errors.
export { createBroker, type Broker, type BrokerOptions, type ConsumeOptions } from './broker.ts';
export type { BrokerStatus } from './connection.ts';
export type { EventHandler, SubscribeOptions } from './events.ts';
export type { HeaderValue, PublishOptions } from './publisher.ts';
export type { RequestOptions } from './rpc.ts';
export type { Consumer, MessageContext, MessageHandler } from './worker.ts';
export {
  ALL_EVENTS,
  deadLetterQueueName,
  deadLetterQueueArguments,
  delayQueueArguments,
  workQueueArguments,
  type QueueType,
  type WorkQueue,
} from './topology.ts';
export {
  BrokerUnavailableError,
  InvalidEventError,
  PoisonMessageError,
  RequeueMessageError,
  RpcRemoteError,
  RpcTimeoutError,
  UnroutableMessageError,
} from './errors.ts';
