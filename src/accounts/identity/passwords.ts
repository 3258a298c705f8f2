import { argon2, randomBytes, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const derive = promisify(argon2);

/** OWASP's argon2id baseline: 19 MiB, 2 passes, 1 lane. */
const PARAMS = { memory: 19_456, passes: 2, parallelism: 1, tagLength: 32 } as const;

export const PASSWORD_POLICY = 'at least 12 and at most 128 characters';

/** Length is what makes a password strong; composition rules only make it predictable (NIST SP 800-63B). */
export function passwordProblem(password: string): string | null {
  const length = [...password].length;
  if (length < 12 || length > 128) return `The password must be ${PASSWORD_POLICY}.`;
  return null;
}

/** A PHC string: `$argon2id$v=19$m=…,t=…,p=…$<salt>$<hash>` (base64, no padding). */
export async function hashPassword(password: string): Promise<string> {
  const nonce = randomBytes(16);
  const tag = await derive('argon2id', { message: password, nonce, ...PARAMS });
  const b64 = (bytes: Buffer) => bytes.toString('base64').replace(/=+$/, '');
  return `$argon2id$v=19$m=${PARAMS.memory},t=${PARAMS.passes},p=${PARAMS.parallelism}$${b64(nonce)}$${b64(tag)}`;
}

const PHC = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/;

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const match = PHC.exec(stored);
  if (!match) return false;
  const expected = Buffer.from(match[5]!, 'base64');
  const tag = await derive('argon2id', {
    message: password,
    nonce: Buffer.from(match[4]!, 'base64'),
    memory: Number(match[1]),
    passes: Number(match[2]),
    parallelism: Number(match[3]),
    tagLength: expected.length,
  });
  return timingSafeEqual(tag, expected);
}

// Unknown e-mails cost a real verification too, so timing does not tell which addresses have accounts.
let decoy: Promise<string> | undefined;
export async function spendVerification(password: string): Promise<void> {
  decoy ??= hashPassword(randomBytes(16).toString('hex'));
  await verifyPassword(password, await decoy);
}
