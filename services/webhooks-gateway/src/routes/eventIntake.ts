// Event intake for services that do not speak AMQP: validate strictly against the catalog, publish
// to `events` marked origin "intake". The platform's own event names are refused unless the
// operator allows them: any service licence of the community could otherwise forge them.
import { credentialsOf, openEncryptedData, type CredentialAuth } from '@idv/auth';
import type { Broker } from '@idv/broker';
import {
  EventAccepted,
  EventIntakeBody,
  INTAKE_CATALOG,
  isEventName,
  eventEnvelope,
  platformEmitter,
  type EventName,
} from '@idv/contracts';
import { BadRequest, Forbidden, NotFound, parseBody, type Route } from '@idv/http';
import type { TenantStore } from '@idv/platform';
import { managerGuards, scopeOfPath } from './scope.ts';
import { WEBHOOK_BASE } from './webhooks.ts';

export interface EventIntakeDeps {
  auth: CredentialAuth;
  tenants: TenantStore;
  broker: Broker;
  /** platform event names the operator lets the intake accept (WEBHOOK_INTAKE_ALLOW_PLATFORM_EVENTS) */
  allowedPlatformEvents: ReadonlySet<string>;
}

/** `{data: "<encrypted JSON>"}` is opened with the shared key; any other object is the data itself. */
function eventData(body: unknown, sharedKey: Buffer): unknown {
  if (!body || typeof body !== 'object' || Array.isArray(body))
    throw new BadRequest('a JSON object body is required');
  const wire = (body as { data?: unknown }).data;
  if (Object.keys(body).length !== 1 || typeof wire !== 'string') return body;
  return openEncryptedData(sharedKey, wire);
}

function refusePlatformEvent(eventName: EventName, allowed: ReadonlySet<string>): void {
  const emitter = platformEmitter(eventName);
  if (!emitter || allowed.has(eventName)) return;
  throw new Forbidden(
    `${eventName} is emitted by the platform itself (the ${emitter} service); the event intake ` +
      'refuses it, so that no licence can forge it, unless the operator lists it in ' +
      'WEBHOOK_INTAKE_ALLOW_PLATFORM_EVENTS',
  );
}

export function eventIntakeRoutes(deps: EventIntakeDeps): Route[] {
  const scopeOf = scopeOfPath(deps.tenants);
  return [
    {
      method: 'PUT',
      path: `${WEBHOOK_BASE}/event/:eventName`,
      guards: managerGuards(deps.auth),
      doc: {
        summary:
          'publishes an event of the catalog for the community, marked origin "intake"; names the platform emits itself are 403 unless the operator allows them',
        body: EventIntakeBody,
        response: EventAccepted,
        success: 202,
        errors: [503],
      },
      handler: async (req, res) => {
        const eventName = String(req.params.eventName);
        if (!isEventName(eventName)) throw new NotFound(`unknown event ${eventName}`);
        refusePlatformEvent(eventName, deps.allowedPlatformEvents);
        const data = eventData(req.body, credentialsOf(res).sharedKey);
        const checked = parseBody(INTAKE_CATALOG[eventName], data, '/data') as Record<
          string,
          unknown
        >;
        const scope = await scopeOf(req);
        const envelope = eventEnvelope(eventName, scope, checked, { origin: 'intake' });
        await deps.broker.publishEvent(envelope);
        res.status(202).json({ eventId: envelope.eventId, eventName });
      },
    },
  ];
}
