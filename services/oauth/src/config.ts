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
  OAUTH_PUBLIC_URL: Type.String({
    default: '',
    description:
      'public scheme://host of the issuers (e.g. https://id.example.com); empty: taken from each request, honouring TRUST_PROXY',
  }),
  OAUTH_KEY_REFRESH_MS: Type.Integer({
    default: 10_000,
    minimum: 100,
    description:
      'how often a cached issuer checks for a signing key rotation made by `oauth-key rotate`',
  }),
  OAUTH_DURABLE_ISSUANCE: Type.Boolean({
    default: false,
    description:
      'false: new tokens, codes, sessions commit asynchronously (a database crash may lose the last ones: they fail closed); true: they wait for the disk, like code use and revoking',
  }),
  OAUTH_SWEEP_INTERVAL_MS: Type.Integer({
    default: 60_000,
    minimum: 1000,
    description: 'how often expired tokens, sessions, used proofs and EAM contexts are deleted',
  }),
});
