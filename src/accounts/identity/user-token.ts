import {
  createHash,
  createPrivateKey,
  createPublicKey,
  hkdfSync,
  type KeyObject,
  randomUUID,
  sign,
  verify,
} from 'node:crypto';
import type { Environment } from '../../platform/config/config.ts';

/** A user token lives 15 minutes: the client logs in again (or with a passkey) after that. */
export const USER_TOKEN_SECONDS = 900;
export const USER_TOKEN_AUDIENCE = 'dpp-api';

export interface UserClaims {
  userId: number;
  email: string;
  companyId: string;
  environment: Environment;
}

export interface UserTokenKeys {
  kid: string;
  privateKey: KeyObject;
  publicJwk: Record<string, string>;
  issuer: string;
}

const PKCS8_ED25519 = Buffer.from('302e020100300506032b657004220420', 'hex');
const DEV_SECRET = 'dpp-development-only-user-token-key';

/**
 * The Ed25519 key that signs user tokens: USER_TOKEN_KEY (a 32-byte hex seed) in production, else derived
 * from DATA_ENCRYPTION_KEY (or the development constant), so every API process signs with the same key.
 */
export function userTokenKeys(
  seed: Buffer | undefined,
  dataEncryptionKey: Buffer | undefined,
  issuer: string,
): UserTokenKeys {
  const material =
    seed ??
    Buffer.from(
      hkdfSync('sha256', dataEncryptionKey ?? Buffer.from(DEV_SECRET), Buffer.alloc(0), 'user-token/1', 32),
    );
  const privateKey = createPrivateKey({
    key: Buffer.concat([PKCS8_ED25519, material]),
    format: 'der',
    type: 'pkcs8',
  });
  const jwk = createPublicKey(privateKey).export({ format: 'jwk' }) as Record<string, string>;
  const kid = createHash('sha256').update(`${jwk.crv}:${jwk.x}`).digest('base64url').slice(0, 16);
  return { kid, privateKey, issuer, publicJwk: { ...jwk, kid, alg: 'EdDSA', use: 'sig' } };
}

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A compact JWS (EdDSA) with the user, company and environment it is bound to. */
export function signUserToken(keys: UserTokenKeys, claims: UserClaims, now = new Date()): string {
  const iat = Math.floor(now.getTime() / 1000);
  const header = b64({ alg: 'EdDSA', typ: 'JWT', kid: keys.kid });
  const payload = b64({
    iss: keys.issuer,
    aud: USER_TOKEN_AUDIENCE,
    sub: String(claims.userId),
    email: claims.email,
    company: claims.companyId,
    env: claims.environment,
    iat,
    exp: iat + USER_TOKEN_SECONDS,
    jti: randomUUID(),
  });
  const signature = sign(null, Buffer.from(`${header}.${payload}`), keys.privateKey).toString('base64url');
  return `${header}.${payload}.${signature}`;
}

export type TokenCheck = { ok: true; claims: UserClaims } | { ok: false; reason: string };

/** Checks signature, kid, issuer, audience and lifetime (30 s of clock skew). */
export function verifyUserToken(keys: UserTokenKeys, token: string, now = new Date()): TokenCheck {
  const parts = token.split('.');
  if (parts.length !== 3) return { ok: false, reason: 'not a JWT' };
  const [headerPart, payloadPart, signaturePart] = parts as [string, string, string];
  let header: Record<string, unknown>;
  let payload: Record<string, unknown>;
  try {
    header = JSON.parse(Buffer.from(headerPart, 'base64url').toString('utf8'));
    payload = JSON.parse(Buffer.from(payloadPart, 'base64url').toString('utf8'));
  } catch {
    return { ok: false, reason: 'not a JWT' };
  }
  if (header.alg !== 'EdDSA' || header.kid !== keys.kid) return { ok: false, reason: 'unknown signing key' };
  const genuine = verify(
    null,
    Buffer.from(`${headerPart}.${payloadPart}`),
    createPublicKey(keys.privateKey),
    Buffer.from(signaturePart, 'base64url'),
  );
  if (!genuine) return { ok: false, reason: 'bad signature' };
  if (payload.iss !== keys.issuer || payload.aud !== USER_TOKEN_AUDIENCE) {
    return { ok: false, reason: 'wrong issuer or audience' };
  }
  const seconds = Math.floor(now.getTime() / 1000);
  if (typeof payload.exp !== 'number' || payload.exp + 30 < seconds) return { ok: false, reason: 'expired' };
  if (payload.env !== 'live' && payload.env !== 'test') return { ok: false, reason: 'no environment' };
  return {
    ok: true,
    claims: {
      userId: Number(payload.sub),
      email: String(payload.email),
      companyId: String(payload.company),
      environment: payload.env,
    },
  };
}
