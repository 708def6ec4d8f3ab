// Event intake for tenants' back ends and services that do not speak AMQP: any catalog name from a
// licence that manages the community (as the vendor's events service takes them), published to
// `events` marked origin "intake" so receivers can tell it from the platform's own. The operator
// can refuse the platform's own names at intake (WEBHOOK_INTAKE_REFUSE_PLATFORM_EVENTS).
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
import { Type } from '@sinclair/typebox';
import { managerGuards, scopeOfPath } from './scope.ts';
import { WEBHOOK_BASE } from './webhooks.ts';

export interface EventIntakeDeps {
  auth: CredentialAuth;
  tenants: TenantStore;
  broker: Broker;
  /** platform event names the operator refuses at intake (WEBHOOK_INTAKE_REFUSE_PLATFORM_EVENTS) */
  refusedPlatformEvents: ReadonlySet<string>;
}

/** `{data: "<encrypted JSON>"}` is opened with the shared key; any other object is the data itself. */
function eventData(body: unknown, sharedKey: Buffer): unknown {
  if (!body || typeof body !== 'object' || Array.isArray(body))
    throw new BadRequest('a JSON object body is required');
  const wire = (body as { data?: unknown }).data;
  if (Object.keys(body).length !== 1 || typeof wire !== 'string') return body;
  return openEncryptedData(sharedKey, wire);
}

function refusePlatformEvent(eventName: EventName, refused: ReadonlySet<string>): void {
  if (!refused.has(eventName)) return;
  throw new Forbidden(
    `${eventName} is emitted by the platform itself (the ${platformEmitter(eventName)!} ` +
      'service) and this platform refuses it at the event intake (WEBHOOK_INTAKE_REFUSE_PLATFORM_EVENTS)',
  );
}

const ANY_EVENT_DATA = Type.Record(Type.String(), Type.Unknown());

/**
 * The members the catalog declares for the event, and the names of those it left out: callers
 * send what their own systems log (the vendor's helper adds ids of its own), and free-form data,
 * personal data among it, does not ride along into events and callbacks.
 */
function declaredMembers(
  eventName: EventName,
  data: unknown,
): { declared: unknown; ignored: string[] } {
  // an object nested no deeper than the platform takes anywhere, the left-out members included
  const checked = parseBody(ANY_EVENT_DATA, data, '/data');
  const known = new Set(Object.keys(INTAKE_CATALOG[eventName].properties));
  const entries = Object.entries(checked);
  return {
    declared: Object.fromEntries(entries.filter(([key]) => known.has(key))),
    ignored: entries.map(([key]) => key).filter((key) => !known.has(key)),
  };
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
          'publishes an event of the catalog for the community, marked origin "intake" in the envelope and the callbacks; members the catalog does not declare are left out and named in `ignored`; 403 for the names the platform emits itself only where the operator refuses them (WEBHOOK_INTAKE_REFUSE_PLATFORM_EVENTS)',
        body: EventIntakeBody,
        response: EventAccepted,
        success: 202,
        errors: [503],
      },
      handler: async (req, res) => {
        const eventName = String(req.params.eventName);
        if (!isEventName(eventName)) throw new NotFound(`unknown event ${eventName}`);
        refusePlatformEvent(eventName, deps.refusedPlatformEvents);
        const { declared, ignored } = declaredMembers(
          eventName,
          eventData(req.body, credentialsOf(res).sharedKey),
        );
        const checked = parseBody(INTAKE_CATALOG[eventName], declared, '/data') as Record<
          string,
          unknown
        >;
        const scope = await scopeOf(req);
        const envelope = eventEnvelope(eventName, scope, checked, { origin: 'intake' });
        await deps.broker.publishEvent(envelope);
        res.status(202).json({ eventId: envelope.eventId, eventName, ignored });
      },
    },
  ];
}
