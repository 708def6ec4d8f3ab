// Settings of the webhooks-gateway service beyond the platform ones.
import { Type } from '@sinclair/typebox';
import { defineConfig } from '@idv/config';
import { PLATFORM_EVENT_NAMES } from '@idv/contracts';

const NAME = `(${PLATFORM_EVENT_NAMES.join('|')})`;

export const WebhooksGatewayConfig = defineConfig({
  WEBHOOKS_PORT: Type.Integer({
    default: 8082,
    minimum: 0,
    maximum: 65535,
    description: 'HTTP port of the webhooks-gateway service',
  }),
  WEBHOOK_SECRET_GRACE_SECONDS: Type.Integer({
    default: 86_400,
    minimum: 0,
    maximum: 30 * 86_400,
    description: 'after a secret rotation, how long the old secret keeps signing beside the new',
  }),
  WEBHOOK_INTAKE_REFUSE_PLATFORM_EVENTS: Type.Boolean({
    default: false,
    description:
      'true: the event intake refuses (403) the names the platform emits itself (the E_IDV and E_OAUTH names) but those WEBHOOK_INTAKE_ALLOW_PLATFORM_EVENTS lists; false: any catalog name is accepted from a licence that manages the community, marked origin intake',
  }),
  WEBHOOK_INTAKE_ALLOW_PLATFORM_EVENTS: Type.String({
    default: '',
    pattern: `^\\s*(${NAME}(\\s*,\\s*${NAME})*)?\\s*$`,
    description:
      'comma-separated platform event names the intake still accepts while WEBHOOK_INTAKE_REFUSE_PLATFORM_EVENTS is true',
  }),
});

/**
 * The platform event names the intake refuses: none unless WEBHOOK_INTAKE_REFUSE_PLATFORM_EVENTS,
 * then every one but those WEBHOOK_INTAKE_ALLOW_PLATFORM_EVENTS lists.
 */
export function intakeRefusedPlatformEvents(settings: {
  WEBHOOK_INTAKE_REFUSE_PLATFORM_EVENTS: boolean;
  WEBHOOK_INTAKE_ALLOW_PLATFORM_EVENTS: string;
}): ReadonlySet<string> {
  if (!settings.WEBHOOK_INTAKE_REFUSE_PLATFORM_EVENTS) return new Set();
  const allowed = new Set(
    settings.WEBHOOK_INTAKE_ALLOW_PLATFORM_EVENTS.split(',')
      .map((name) => name.trim())
      .filter(Boolean),
  );
  return new Set(PLATFORM_EVENT_NAMES.filter((name) => !allowed.has(name)));
}
