import type { Config } from '../../platform/config/config.ts';
import { type UserTokenKeys, userTokenKeys } from './user-token.ts';

const cache = new WeakMap<Config, UserTokenKeys>();

/** The user-token keys of a configuration (built once; the issuer is the service's public URL). */
export function userTokenKeysOf(config: Config): UserTokenKeys {
  let keys = cache.get(config);
  if (!keys) {
    keys = userTokenKeys(
      config.identity.userTokenKey,
      config.secrets.dataEncryptionKey,
      config.publicBaseUrl,
    );
    cache.set(config, keys);
  }
  return keys;
}
