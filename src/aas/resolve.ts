import type { EntityManager } from '@mikro-orm/postgresql';
import type { Environment } from '../config/config.ts';
import { Chip, Passport } from '../db/entities/index.ts';
import { DomainError } from '../errors.ts';
import { buildShell, shellId } from './shell.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TOKEN_ID = /^[1-9]\d{0,77}$/;

/**
 * Which passport `:id` names: a token id (decimal digits), the passport's serviceUid (UUID), or the shell's
 * own IRI id (`{PUBLIC_BASE_URL}/aas/{environment}/{tokenId}`, URL-encoded in the path).
 */
export function passportKey(
  id: string,
  publicBaseUrl: string,
  environment: Environment,
): { tokenId: string } | { serviceUid: string } | undefined {
  if (TOKEN_ID.test(id)) return { tokenId: id };
  if (UUID.test(id)) return { serviceUid: id.toLowerCase() };
  const prefix = shellId(publicBaseUrl, environment, '');
  if (id.startsWith(prefix) && TOKEN_ID.test(id.slice(prefix.length)))
    return { tokenId: id.slice(prefix.length) };
  return undefined;
}

/** The shell of one of the caller's passports (the entity manager is scoped to company and environment). */
export async function resolveShell(
  em: EntityManager,
  id: string,
  publicBaseUrl: string,
  environment: Environment,
) {
  const key = passportKey(id, publicBaseUrl, environment);
  const passport = key ? await em.findOne(Passport, key) : null;
  if (!passport) throw new DomainError('not_found', 'passport_not_found', `No passport ${id}.`);
  const chip = await em.findOne(Chip, { id: passport.chipId });
  return buildShell(passport, chip, publicBaseUrl);
}
