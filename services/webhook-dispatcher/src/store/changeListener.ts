// LISTENs on the webhooks schema's channels over one dedicated connection, reconnecting on loss.
import { DELIVERIES_DUE_CHANNEL, WEBHOOK_CHANGED_CHANNEL } from '@idv/contracts';
import type { Logger } from '@idv/observability';
import pg from 'pg';

export interface ChangeHandlers {
  webhookChanged(change: { id: string; communityId: string }): void;
  deliveriesDue(): void;
  /** the connection was (re)made: anything sent while it was down was missed */
  resynced(): void;
}

export function listenForChanges(
  databaseUrl: string,
  handlers: ChangeHandlers,
  logger: Logger,
): { stop(): Promise<void> } {
  let client: pg.Client | undefined;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;

  const onNotification = (message: pg.Notification): void => {
    if (message.channel === DELIVERIES_DUE_CHANNEL) return handlers.deliveriesDue();
    try {
      handlers.webhookChanged(
        JSON.parse(message.payload ?? '') as { id: string; communityId: string },
      );
    } catch {
      handlers.resynced();
    }
  };

  const connect = async (): Promise<void> => {
    if (stopped) return;
    const next = new pg.Client({
      connectionString: databaseUrl,
      application_name: 'idv-webhooks-listen',
    });
    next.on('notification', onNotification);
    next.on('error', () => retry(next));
    next.on('end', () => retry(next));
    try {
      await next.connect();
      await next.query(`LISTEN ${WEBHOOK_CHANGED_CHANNEL}`);
      await next.query(`LISTEN ${DELIVERIES_DUE_CHANNEL}`);
      client = next;
      handlers.resynced();
    } catch (err) {
      logger.warn({ err: (err as Error).message }, 'change listener could not connect; retrying');
      retry(next);
    }
  };

  const retry = (failed: pg.Client): void => {
    if (client === failed) client = undefined;
    failed.removeAllListeners('end');
    failed.end().catch(() => undefined);
    if (stopped || timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      void connect();
    }, 1000);
  };

  void connect();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await client?.end().catch(() => undefined);
    },
  };
}
