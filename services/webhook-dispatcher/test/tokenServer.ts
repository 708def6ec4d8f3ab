// A small OAuth 2.0 token endpoint for tests: client_credentials with HTTP Basic, one token per
// (client id, secret) it knows, 401 invalid_client for anything else; every request is recorded.
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TokenRequestSeen {
  clientId: string;
  clientSecret: string;
  answered: number;
  token?: string;
}

export interface TokenServer {
  url: string;
  seen: TokenRequestSeen[];
  /** registers a client secret; the token it will be given is returned */
  client(clientId: string, clientSecret: string): string;
  close(): Promise<void>;
}

function basicCredentials(header: string | undefined): [string, string] {
  const encoded = /^Basic (.+)$/.exec(header ?? '')?.[1] ?? '';
  const [id = '', secret = ''] = Buffer.from(encoded, 'base64').toString('utf8').split(':');
  return [decodeURIComponent(id), decodeURIComponent(secret)];
}

export async function startTokenServer(): Promise<TokenServer> {
  const seen: TokenRequestSeen[] = [];
  const tokens = new Map<string, string>();
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const [clientId, clientSecret] = basicCredentials(req.headers.authorization);
      const token = tokens.get(`${clientId}\n${clientSecret}`);
      const answered = token ? 200 : 401;
      seen.push({ clientId, clientSecret, answered, ...(token ? { token } : {}) });
      res.writeHead(answered, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify(
          token
            ? { access_token: token, token_type: 'Bearer', expires_in: 3600 }
            : { error: 'invalid_client' },
        ),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/token`,
    seen,
    client(clientId, clientSecret) {
      const token = `at-${clientId}-${randomBytes(8).toString('hex')}`;
      tokens.set(`${clientId}\n${clientSecret}`, token);
      return token;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
