// Login and token events of a community, published without ever holding up or failing a login.
import { randomUUID } from 'node:crypto';
import type { EventData } from '@idv/contracts';
import type { Broker } from '@idv/broker';
import type { Logger } from '@idv/observability';
import type { Community } from '@idv/platform';

type OauthEventName = 'E_OAUTH_LOGIN_SUCCEEDED' | 'E_OAUTH_LOGIN_FAILED' | 'E_OAUTH_TOKEN_ISSUED';

export type OauthEvents = <N extends OauthEventName>(
  community: Community,
  eventName: N,
  data: EventData<N>,
) => void;

export function oauthEvents(broker: Broker, logger: Logger): OauthEvents {
  return (community, eventName, data) => {
    const eventId = randomUUID();
    broker
      .publishEvent({
        eventId,
        eventName,
        version: 1,
        tenantId: community.tenantId,
        communityId: community.id,
        ts: Date.now(),
        data,
      })
      .catch((err: unknown) =>
        logger.warn({ eventId, eventName, err }, 'event not published; the login goes on'),
      );
  };
}
