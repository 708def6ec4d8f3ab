// Settings of the docverify-gateway service beyond the platform ones.
import { Type } from '@sinclair/typebox';
import { defineConfig } from '@idv/config';

export const DocverifyGatewayConfig = defineConfig({
  DOCVERIFY_PORT: Type.Integer({
    default: 8081,
    minimum: 0,
    maximum: 65535,
    description: 'HTTP port of the docverify-gateway service',
  }),
});
