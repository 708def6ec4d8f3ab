// Settings of the webhooks-gateway service beyond the platform ones.
import { Type } from '@sinclair/typebox';
import { defineConfig } from '@idv/config';

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
});
