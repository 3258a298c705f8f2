import { createHmac } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { DomainError } from '../../platform/errors.ts';
import { normaliseEmail } from './email.ts';

/** A ceremony's challenge is good for five minutes, once. */
const CHALLENGE_MINUTES = 5;
/** ES256 and RS256: what platform authenticators and security keys offer. */
const ALGORITHMS = [-7, -257];

export interface RelyingParty {
  id: string;
  name: string;
  /** Where the browser page runs (clientDataJSON's origin must be one of these). */
  origins: string[];
}

interface PasskeyRow {
  id: string;
  user_id: number;
  public_key: Buffer;
  counter: string | number;
  transports: string[] | string;
}

const transportsOf = (row: PasskeyRow) =>
  (typeof row.transports === 'string' ? JSON.parse(row.transports) : row.transports) as never[];

async function saveChallenge(
  em: EntityManager,
  userId: number,
  purpose: 'register' | 'login',
  challenge: string,
) {
  await em.execute(
    `insert into passkey_challenges (challenge, user_id, purpose, expires_at)
     values (?, ?, ?, now() + interval '${CHALLENGE_MINUTES} minutes')`,
    [challenge, userId, purpose],
  );
}

/** Takes the challenge the client answered (once, unexpired), or refuses the ceremony. */
async function takeChallenge(
  em: EntityManager,
  purpose: 'register' | 'login',
  clientDataJSON: string,
  userId?: number,
): Promise<{ challenge: string; userId: number }> {
  let challenge: string;
  try {
    challenge = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8')).challenge;
  } catch {
    throw new DomainError('invalid', 'invalid_passkey_response', 'clientDataJSON is not base64url JSON.');
  }
  const [row] = await em.execute<{ user_id: number }[]>(
    `update passkey_challenges set used_at = now()
     where challenge = ? and purpose = ? and used_at is null and expires_at > now()
       and (?::int is null or user_id = ?::int)
     returning user_id`,
    [String(challenge), purpose, userId ?? null, userId ?? null],
  );
  if (!row) {
    throw new DomainError(
      'unauthenticated',
      'passkey_challenge_invalid',
      'Unknown, used or expired challenge: start again.',
    );
  }
  return { challenge: String(challenge), userId: row.user_id };
}

/** Registration options for the signed-in user (the e-mail must be theirs): the spec's challenge response. */
export async function registrationChallenge(
  em: EntityManager,
  rp: RelyingParty,
  user: { id: number; email: string },
) {
  const existing = await em.execute<PasskeyRow[]>('select * from passkeys where user_id = ?', [user.id]);
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: user.email,
    userID: new TextEncoder().encode(`user:${user.id}`),
    userDisplayName: user.email,
    attestationType: 'none',
    supportedAlgorithmIDs: ALGORITHMS,
    excludeCredentials: existing.map((row) => ({ id: row.id, transports: transportsOf(row) })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
  });
  await saveChallenge(em, user.id, 'register', options.challenge);
  return options;
}

/** Verifies the attestation and stores the passkey (several per user); the password, if any, keeps working. */
export async function verifyRegistration(
  em: EntityManager,
  rp: RelyingParty,
  userId: number,
  response: RegistrationResponseJSON,
): Promise<void> {
  const { challenge } = await takeChallenge(em, 'register', response.response.clientDataJSON, userId);
  const verification = await verifyRegistrationResponse({
    response,
    expectedChallenge: challenge,
    expectedOrigin: rp.origins,
    expectedRPID: rp.id,
    requireUserVerification: false,
  }).catch((error: Error) => {
    throw new DomainError('unauthenticated', 'passkey_not_verified', error.message);
  });
  if (!verification.verified || !verification.registrationInfo) {
    throw new DomainError('unauthenticated', 'passkey_not_verified', 'The passkey could not be verified.');
  }
  const { credential, credentialDeviceType, credentialBackedUp } = verification.registrationInfo;
  await em.execute(
    `insert into passkeys (id, user_id, public_key, counter, transports, device_type, backed_up)
     values (?, ?, ?, ?, ?::jsonb, ?, ?) on conflict (id) do nothing`,
    [
      credential.id,
      userId,
      Buffer.from(credential.publicKey),
      credential.counter,
      JSON.stringify(credential.transports ?? []),
      credentialDeviceType,
      credentialBackedUp,
    ],
  );
}

/**
 * Login options for an e-mail. An address without passkeys (or without an account) gets the same shape, with a
 * credential id derived from the address, so the answer does not tell which addresses have passkeys.
 */
export async function loginChallenge(em: EntityManager, rp: RelyingParty, email: string, secret: Buffer) {
  const address = normaliseEmail(email);
  const [user] = await em.execute<{ id: number }[]>('select id from users where email = ?', [address]);
  const passkeys = user
    ? await em.execute<PasskeyRow[]>('select * from passkeys where user_id = ?', [user.id])
    : [];
  const decoy = createHmac('sha256', secret).update(`passkey-decoy:${address}`).digest().subarray(0, 32);
  const options = await generateAuthenticationOptions({
    rpID: rp.id,
    userVerification: 'preferred',
    allowCredentials:
      passkeys.length > 0
        ? passkeys.map((row) => ({ id: row.id, transports: transportsOf(row) }))
        : [{ id: decoy.toString('base64url') }],
  });
  if (user) await saveChallenge(em, user.id, 'login', options.challenge);
  return options;
}

/** Verifies an assertion against the stored passkey (signature, challenge, origin, RP id, counter). */
export async function verifyLogin(
  em: EntityManager,
  rp: RelyingParty,
  response: AuthenticationResponseJSON,
): Promise<number> {
  const [passkey] = await em.execute<PasskeyRow[]>('select * from passkeys where id = ?', [response.id]);
  if (!passkey) throw new DomainError('unauthenticated', 'passkey_not_verified', 'Unknown passkey.');
  const { challenge } = await takeChallenge(em, 'login', response.response.clientDataJSON, passkey.user_id);
  const verification = await verifyAuthenticationResponse({
    response,
    expectedChallenge: challenge,
    expectedOrigin: rp.origins,
    expectedRPID: rp.id,
    credential: {
      id: passkey.id,
      publicKey: new Uint8Array(passkey.public_key),
      counter: Number(passkey.counter),
      transports: transportsOf(passkey),
    },
    requireUserVerification: false,
  }).catch((error: Error) => {
    throw new DomainError('unauthenticated', 'passkey_not_verified', error.message);
  });
  if (!verification.verified) {
    throw new DomainError('unauthenticated', 'passkey_not_verified', 'The passkey could not be verified.');
  }
  await em.execute('update passkeys set counter = ?, backed_up = ?, last_used_at = now() where id = ?', [
    verification.authenticationInfo.newCounter,
    verification.authenticationInfo.credentialBackedUp,
    passkey.id,
  ]);
  return passkey.user_id;
}

export async function hasPasskey(em: EntityManager, userId: number): Promise<boolean> {
  const rows = await em.execute<{ n: number }[]>(
    'select count(*)::int as n from passkeys where user_id = ?',
    [userId],
  );
  return (rows[0]?.n ?? 0) > 0;
}

export interface PasskeySummary {
  id: string;
  deviceType: string;
  backedUp: boolean;
  createdAt: string;
  lastUsedAt: string | null;
}

/** The user's own passkeys, newest first (no key material). */
export async function listPasskeys(em: EntityManager, userId: number): Promise<PasskeySummary[]> {
  const rows = await em.execute<
    { id: string; device_type: string; backed_up: boolean; created_at: Date; last_used_at: Date | null }[]
  >(
    `select id, device_type, backed_up, created_at, last_used_at from passkeys where user_id = ?
     order by created_at desc, id`,
    [userId],
  );
  return rows.map((row) => ({
    id: row.id,
    deviceType: row.device_type,
    backedUp: row.backed_up,
    createdAt: new Date(row.created_at).toISOString(),
    lastUsedAt: row.last_used_at ? new Date(row.last_used_at).toISOString() : null,
  }));
}

/** Removes one of the user's own passkeys; someone else's (or an unknown id) is not found. */
export async function removePasskey(em: EntityManager, userId: number, id: string): Promise<void> {
  const removed = await em.execute<{ id: string }[]>(
    'delete from passkeys where id = ? and user_id = ? returning id',
    [id, userId],
  );
  if (removed.length === 0) {
    throw new DomainError('not_found', 'passkey_not_found', 'You have no passkey with this id.');
  }
}
