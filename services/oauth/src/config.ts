// Settings of the oauth service beyond the platform ones.
import { Type } from '@sinclair/typebox';
import { defineConfig } from '@idv/config';

export const OauthConfig = defineConfig({
  OAUTH_PORT: Type.Integer({
    default: 8080,
    minimum: 0,
    maximum: 65535,
    description: 'HTTP port of the oauth service',
  }),
});
