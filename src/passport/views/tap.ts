import type { EntityManager } from '@mikro-orm/postgresql';
import { type Reopenings, verifyTap } from '../../chips/verify-tap.ts';
import { DomainError } from '../../platform/errors.ts';
import type { SecretBox } from '../../platform/secret-box.ts';
import { parseSunMessage, SUN_PARAM_NAMES, sunPayloadOf } from '../../standards/sun/index.ts';
import type { PassportRecord } from './lookup.ts';
import type { TapVerdict, VerdictClaims } from './tap-verdict.ts';

/** True when a query carries a chip's SUN signature (picc_data or e, and cmac or c). */
export function hasSunParameters(query: Record<string, unknown>): boolean {
  const names = new Set(Object.keys(query).map((name) => name.toLowerCase()));
  const has = (role: keyof typeof SUN_PARAM_NAMES) => SUN_PARAM_NAMES[role].some((name) => names.has(name));
  return has('piccData') && has('cmac');
}

/**
 * Verifies a tap of the passport's chip from the tapped URL's query (as verify-chip does: a genuine signature's
 * read counter is accepted once, in one conditional update, and counts as a verification). The verdict is all
 * the consumer learns: a signature that does not parse, does not verify with the company's keys or belongs to
 * another chip is forged; a genuine one already used is replayed.
 */
export async function verifyPassportTap(
  em: EntityManager,
  box: SecretBox,
  passport: Pick<PassportRecord, 'companyId' | 'environment' | 'chipUid'>,
  query: string,
  client?: string,
): Promise<TapVerdict> {
  return (await checkPassportTap(em, box, passport, query, client)).verdict;
}

/** What a tap tells the consumer: the verdict and, for a used URL opened again, how often since when. */
export interface TapOutcome {
  verdict: TapVerdict;
  reopenings?: Reopenings;
}

/** verifyPassportTap with the reopenings of a used URL (the verification page's notice). */
export async function checkPassportTap(
  em: EntityManager,
  box: SecretBox,
  passport: Pick<PassportRecord, 'companyId' | 'environment' | 'chipUid'>,
  query: string,
  client?: string,
): Promise<TapOutcome> {
  const parsed = parseSunMessage(query);
  if (!parsed.ok) return { verdict: 'forged' };
  try {
    const result = await verifyTap(
      em,
      box,
      { companyId: passport.companyId, environment: passport.environment },
      {
        chipUid: passport.chipUid,
        sun: sunPayloadOf(parsed),
        client,
      },
    );
    if (result.authentic) return { verdict: 'authentic' };
    if (result.reason !== 'replayed') return { verdict: 'forged' };
    return result.reopenings
      ? { verdict: 'replayed', reopenings: result.reopenings }
      : { verdict: 'replayed' };
  } catch (error) {
    if (error instanceof DomainError && error.code === 'malformed_sun_payload') {
      return { verdict: 'forged' };
    }
    // A live passport whose company has no SUN keys: nothing to check the signature with.
    if (error instanceof DomainError && error.code === 'chip_keys_not_configured') {
      return { verdict: 'unverifiable' };
    }
    throw error;
  }
}

/** The reopenings as the verdict token carries them (Unix seconds). */
export function reopenedClaim(reopenings: Reopenings | undefined): VerdictClaims['reopened'] {
  return reopenings
    ? { openings: reopenings.openings, since: Math.floor(reopenings.since.getTime() / 1000) }
    : undefined;
}
