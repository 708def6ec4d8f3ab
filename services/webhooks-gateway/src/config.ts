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
  WEBHOOK_INTAKE_ALLOW_PLATFORM_EVENTS: Type.String({
    default: '',
    pattern: `^\\s*(${NAME}(\\s*,\\s*${NAME})*)?\\s*$`,
    description:
      'comma-separated event names the platform emits itself that the event intake accepts anyway, from any service licence of the community; empty: all refused (403)',
  }),
});

/** The platform event names the intake accepts, from WEBHOOK_INTAKE_ALLOW_PLATFORM_EVENTS. */
export function intakeAllowedPlatformEvents(setting: string): ReadonlySet<string> {
  return new Set(
    setting
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean),
  );
}
