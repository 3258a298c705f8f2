import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as validator from '@authenio/samlify-node-xmllint';
import * as samlify from 'samlify';

export interface TestSamlIdp {
  entityId: string;
  ssoUrl: string;
  certificate: string;
  /** Answers an AuthnRequest (our redirect URL) for `email` with a signed response, as the IdP's form would POST it. */
  respond(authorizationUrl: string, email: string): Promise<{ SAMLResponse: string; RelayState: string }>;
}

/** A key pair and self-signed certificate made by openssl, for the IdP to sign with. */
function keyAndCertificate(): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), 'dpp-saml-idp-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '2',
      '-subj',
      '/CN=test-idp.example',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
    ],
    { stdio: 'ignore' },
  );
  const pair = {
    key: readFileSync(join(dir, 'key.pem'), 'utf8'),
    cert: readFileSync(join(dir, 'cert.pem'), 'utf8'),
  };
  rmSync(dir, { recursive: true, force: true });
  return pair;
}

/**
 * A SAML 2.0 identity provider (the samlify package) that signs real responses to our service provider, which it
 * knows from the metadata the service serves. Its SSO URL is never visited: `respond` plays the IdP's login page.
 */
export async function startSamlIdp(spMetadataXml: string): Promise<TestSamlIdp> {
  samlify.setSchemaValidator(validator);
  const { key, cert } = keyAndCertificate();
  const entityId = 'https://idp.acme.example/saml';
  const ssoUrl = 'https://idp.acme.example/saml/sso';
  const idp = samlify.IdentityProvider({
    entityID: entityId,
    privateKey: key,
    signingCert: cert,
    isAssertionEncrypted: false,
    wantAuthnRequestsSigned: false,
    nameIDFormat: ['urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress'],
    singleSignOnService: [
      { Binding: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect', Location: ssoUrl },
    ],
  });
  const sp = samlify.ServiceProvider({ metadata: spMetadataXml, wantAssertionsSigned: true });
  return {
    entityId,
    ssoUrl,
    certificate: cert,
    async respond(authorizationUrl, email) {
      const url = new URL(authorizationUrl);
      const request = await idp.parseLoginRequest(sp, 'redirect', {
        query: Object.fromEntries(url.searchParams),
        octetString: url.search.slice(1),
      } as never);
      const response = (await idp.createLoginResponse(sp, request as never, 'post', { email })) as {
        context: string;
      };
      return { SAMLResponse: response.context, RelayState: url.searchParams.get('RelayState') ?? '' };
    },
  };
}
