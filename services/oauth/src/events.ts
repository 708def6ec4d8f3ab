// Login and token events of a community, published without ever holding up or failing a login.
import { eventEnvelope, type EventData } from '@idv/contracts';
import type { Broker } from '@idv/broker';
import type { Logger } from '@idv/observability';
import type { Community } from '@idv/platform';

type OauthEventName =
  | 'E_OAUTH_LOGIN_SUCCEEDED'
  | 'E_OAUTH_LOGIN_FAILED'
  | 'E_OAUTH_ACCOUNT_LOCKED'
  | 'E_OAUTH_FACTOR_ADDED'
  | 'E_OAUTH_TOKEN_ISSUED';

export type OauthEvents = <N extends OauthEventName>(
  community: Community,
  eventName: N,
  data: EventData<N>,
) => void;

export function oauthEvents(broker: Broker, logger: Logger): OauthEvents {
  return (community, eventName, data) => {
    const event = eventEnvelope(
      eventName,
      { tenantId: community.tenantId, communityId: community.id },
      data,
    );
    broker
      .publishEvent(event)
      .catch((err: unknown) =>
        logger.warn(
          { eventId: event.eventId, eventName, err },
          'event not published; the login goes on',
        ),
      );
  };
}
