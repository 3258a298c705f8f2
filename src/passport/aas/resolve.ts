import type { EntityManager } from '@mikro-orm/postgresql';
import type { Environment } from '../../platform/config/config.ts';
import { AssetTwin, Chip, Passport } from '../../platform/db/entities/index.ts';
import { DomainError } from '../../platform/errors.ts';
import { SERVICE_INTERNAL_ID_PATTERN } from '../record/service-id.ts';
import { buildShell, shellId } from './shell.ts';
import { buildTwinShell, twinShellId } from './twin-shell.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TOKEN_ID = /^[1-9]\d{0,77}$/;

/**
 * What `:id` names: a token id (decimal digits), a passport's serviceUid (UUID), a provisioned twin's
 * service_internal_id (`svc_…`), or a shell's own IRI id (`{PUBLIC_BASE_URL}/aas/{environment}/{tokenId}`
 * or `…/twins/{service_internal_id}`, URL-encoded in the path).
 */
export function shellKey(
  id: string,
  publicBaseUrl: string,
  environment: Environment,
): { tokenId: string } | { serviceUid: string } | { serviceInternalId: string } | undefined {
  if (TOKEN_ID.test(id)) return { tokenId: id };
  if (UUID.test(id)) return { serviceUid: id.toLowerCase() };
  if (SERVICE_INTERNAL_ID_PATTERN.test(id)) return { serviceInternalId: id };
  const twinPrefix = twinShellId(publicBaseUrl, environment, '');
  if (id.startsWith(twinPrefix)) return shellKey(id.slice(twinPrefix.length), publicBaseUrl, environment);
  const prefix = shellId(publicBaseUrl, environment, '');
  if (id.startsWith(prefix) && TOKEN_ID.test(id.slice(prefix.length)))
    return { tokenId: id.slice(prefix.length) };
  return undefined;
}

/**
 * The shell of one of the caller's passports or twins (the entity manager is scoped to company and
 * environment). A twin with a passport resolves to the passport's shell.
 */
export async function resolveShell(
  em: EntityManager,
  id: string,
  publicBaseUrl: string,
  environment: Environment,
) {
  const notFound = () => new DomainError('not_found', 'passport_not_found', `No passport or twin ${id}.`);
  const key = shellKey(id, publicBaseUrl, environment);
  if (!key) throw notFound();
  let passport: Passport | null;
  if ('serviceInternalId' in key) {
    const twin = await em.findOne(AssetTwin, key);
    if (!twin) throw notFound();
    passport = twin.chipUid ? await em.findOne(Passport, { chipUid: twin.chipUid }) : null;
    if (!passport) {
      const chip = twin.chipUid ? await em.findOne(Chip, { chipUid: twin.chipUid }) : null;
      return buildTwinShell(twin, chip, publicBaseUrl);
    }
  } else {
    passport = await em.findOne(Passport, key);
  }
  if (!passport) throw notFound();
  const chip = await em.findOne(Chip, { id: passport.chipId });
  return buildShell(passport, chip, publicBaseUrl);
}
