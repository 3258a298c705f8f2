import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
// @ts-expect-error oidc-provider ships no type declarations; its configuration is checked at start-up.
import Provider from 'oidc-provider';

export interface TestOpenIdProvider {
  issuer: string;
  client: { id: string; secret: string };
  close(): Promise<void>;
}

/**
 * A real OpenID Provider (the oidc-provider package) on localhost, with one confidential client for `redirectUri`.
 * Its development login page accepts any login: the login becomes the subject and the (verified) e-mail.
 */
export async function startOpenIdProvider(
  redirectUri: string,
  /** 127.0.0.1 puts the provider on another site than a service at localhost (a cross-site return). */
  host: 'localhost' | '127.0.0.1' = 'localhost',
): Promise<TestOpenIdProvider> {
  const server: Server = createServer();
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const issuer = `http://${host}:${(server.address() as AddressInfo).port}`;
  const client = { id: 'dpp-service', secret: 'a-test-client-secret-of-enough-length' };
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: client.id,
        client_secret: client.secret,
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    scopes: ['openid', 'email'],
    cookies: { keys: ['test-cookie-key-for-the-openid-provider'] },
    features: { devInteractions: { enabled: true } },
    pkce: { required: () => true },
    // Like the common enterprise providers: the e-mail a client asked for is in the ID token itself.
    conformIdTokenClaims: false,
    async findAccount(_ctx: unknown, id: string) {
      return { accountId: id, claims: async () => ({ sub: id, email: id, email_verified: true }) };
    },
  });
  server.on('request', provider.callback());
  return {
    issuer,
    client,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}
