// Settings of the operator console beyond the platform ones: where it is reached, the operators'
// issuer it signs people in at (as a confidential client), and the gateways it calls for them.
import { Type } from '@sinclair/typebox';
import { defineConfig } from '@idv/config';

export const ConsoleConfig = defineConfig({
  CONSOLE_PORT: Type.Integer({
    default: 8084,
    minimum: 0,
    maximum: 65535,
    description: 'HTTP port of the operator console',
  }),
  CONSOLE_PUBLIC_URL: Type.String({
    default: 'http://localhost:8084',
    pattern: '^https?://[^/?#]+$',
    description:
      'scheme://host[:port] people open the console at: its origin is the only one writes are accepted from, and the issuer sends them back to <it>/auth/callback; cookies are Secure and `__Host-` there (plain http is allowed on localhost only: Chromium treats it as a secure context)',
  }),
  CONSOLE_OIDC_ISSUER: Type.String({
    default: 'http://localhost:8080/community/operators',
    description: "the operators' issuer the console signs operators in at",
  }),
  CONSOLE_CLIENT_ID: Type.String({
    default: '',
    description:
      'the console\'s client at that issuer (`oauth-client create --community operators --redirect-uri <CONSOLE_PUBLIC_URL>/auth/callback --name "Operator console" --console yes`); empty: login answers 503',
  }),
  CONSOLE_CLIENT_SECRET: Type.String({
    default: '',
    description: "that client's secret",
  }),
  DOCVERIFY_INTERNAL_URL: Type.String({
    default: 'http://127.0.0.1:8081',
    description: 'the docverify gateway as the console reaches it (review cases, erasure)',
  }),
  WEBHOOKS_INTERNAL_URL: Type.String({
    default: 'http://127.0.0.1:8082',
    description: 'the webhooks gateway as the console reaches it',
  }),
  CONSOLE_WEB_DIR: Type.String({
    default: 'services/console/dist',
    description: "the built web app (a relative path is taken from the repository's root)",
  }),
});
