import type { PassportCredentialDeps } from '../../../src/passport/credentials/passport-credential.ts';
import type { RepresentationDeps } from '../../../src/passport/views/passport-request.ts';
import { verdictKey } from '../../../src/passport/views/tap-verdict.ts';
import { createLogger } from '../../../src/platform/logging/logger.ts';
import { CredentialIssuer } from '../../../src/standards/credentials/issuer.ts';
import { IssuerKeyring } from '../../../src/standards/credentials/issuer-keys.ts';
import type { RouteDeps } from '../deps.ts';

/** What the public passport's routes share: one issuer keyring per app, the verdict key, actor DID settings. */
export interface PublicPassportDeps extends RouteDeps {
  issuer: CredentialIssuer;
  credentials: PassportCredentialDeps;
  verdictKey: Buffer;
  /** What src/passport/views/representation.ts reads and signs with. */
  views: RepresentationDeps;
}

const shared = new WeakMap<RouteDeps, PublicPassportDeps>();

export function publicPassportDeps(deps: RouteDeps): PublicPassportDeps {
  let found = shared.get(deps);
  if (!found) {
    const log = createLogger(deps.config.logLevel, { component: 'issuer-keys' });
    const keyring = new IssuerKeyring({
      orm: deps.orm,
      publicBaseUrl: deps.config.publicBaseUrl,
      configured: deps.config.credentials.issuerKeys,
      secretBox: deps.secretBox,
      onGenerated: (environment, publicKeyMultibase) => {
        const message = `generated the ${environment} issuer key (kept in the database); set ISSUER_KEY_${environment.toUpperCase()} to sign with a key of your own`;
        if (environment === 'live') log.warn({ publicKeyMultibase }, message);
        else log.info({ publicKeyMultibase }, message);
      },
    });
    const issuer = new CredentialIssuer(keyring, deps.config.publicBaseUrl);
    const credentials = {
      issuer,
      publicBaseUrl: deps.config.publicBaseUrl,
      chainIds: deps.config.credentials.chainIds,
      custodyMasterSecret: deps.config.secrets.custodyMasterSecret,
    };
    const key = verdictKey(deps.config.secrets.dataEncryptionKey);
    found = {
      ...deps,
      issuer,
      credentials,
      verdictKey: key,
      views: {
        orm: deps.orm,
        publicBaseUrl: deps.config.publicBaseUrl,
        credentials,
        secretBox: deps.secretBox,
        verdictKey: key,
      },
    };
    shared.set(deps, found);
  }
  return found;
}
