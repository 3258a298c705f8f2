import type { EntityManager } from '@mikro-orm/postgresql';
import { Chip, Passport } from '../../platform/db/entities/index.ts';
import { DomainError } from '../../platform/errors.ts';
import { digitalLink } from '../../standards/gs1/digital-link.ts';
import { tokenEvents } from '../timeline/list-events.ts';
import { verifyPagePath } from '../views/linkset.ts';
import { describeOwnerWallet, type OwnerWalletSecrets } from './owner-wallet.ts';
import { dppIdOf } from './passport-header.ts';
import { passportStatus } from './search-passports.ts';

/** One line of a passport's timeline: its mint, each supply-chain event (anchored or on its way), a revocation. */
export interface TimelineEntry {
  kind: 'minted' | 'event' | 'revoked';
  /** The event's action (MINT, SHIPPED, …); REVOKED for a revocation. */
  action: string;
  at: string;
  locationName: string | null;
  /** The transaction that put it on chain; null while an event is being anchored, and for a revocation. */
  transactionHash: string | null;
  blockNumber: number | null;
  /** A revocation's reason. */
  reason: string | null;
}

/**
 * The console's page of one passport of the company (the entity manager is scoped to it: another company's
 * passport is not found): its facts, its timeline (oldest first), its chip's verified taps and its public
 * addresses (verification page, Digital Link, the W3C credential).
 */
export async function passportOverview(
  em: EntityManager,
  tokenId: string,
  publicBaseUrl: string,
  secrets: OwnerWalletSecrets,
) {
  const passport = await em.findOne(Passport, { tokenId });
  if (!passport) {
    throw new DomainError('not_found', 'passport_not_found', `No passport ${tokenId} in this environment.`);
  }
  const [chip, events, owner] = await Promise.all([
    em.findOne(Chip, { id: passport.chipId }),
    tokenEvents(em, tokenId),
    describeOwnerWallet(em, passport, secrets),
  ]);
  const metadata = passport.metadataCache as { name?: unknown; custom_dpp_data?: Record<string, unknown> };
  const custom = metadata.custom_dpp_data ?? {};
  const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);
  const gtin = passport.gtin ?? '00000000000000';
  const link = digitalLink(publicBaseUrl, passport.environment, gtin, passport.tokenId);
  // The mint records its own MINT event (with its transaction); a passport without one gets it from its row.
  const timeline: TimelineEntry[] = events.map(
    (event): TimelineEntry => ({
      kind: event.action === 'MINT' ? 'minted' : 'event',
      action: event.action,
      at: event.timestamp,
      locationName: event.locationName,
      transactionHash: event.transactionHash,
      blockNumber: event.blockNumber === null ? null : Number(event.blockNumber),
      reason: null,
    }),
  );
  if (!timeline.some((entry) => entry.kind === 'minted')) {
    timeline.unshift({
      kind: 'minted',
      action: 'MINT',
      at: passport.mintTimestamp.toISOString(),
      locationName: null,
      transactionHash: passport.transactionHash,
      blockNumber: Number(passport.mintBlock),
      reason: null,
    });
  }
  if (passport.revokedAt) {
    timeline.push({
      kind: 'revoked',
      action: 'REVOKED',
      at: passport.revokedAt.toISOString(),
      locationName: null,
      transactionHash: null,
      blockNumber: null,
      reason: passport.revocationReason ?? null,
    });
  }
  // Oldest first (ISO times compare as text; the sort is stable, so the mint leads its own instant).
  timeline.sort((a, b) => a.at.localeCompare(b.at));
  return {
    tokenId: passport.tokenId,
    digitalProductPassportId: dppIdOf(passport.serviceUid),
    chipUid: passport.chipUid,
    name: text(metadata.name),
    gtin: passport.gtin ?? null,
    batch: text(custom.batch_number),
    productId: passport.productId ?? null,
    material: passport.material ?? null,
    manufacturer: text(custom.manufacturer_name),
    status: passportStatus(passport),
    revokedAt: passport.revokedAt?.toISOString() ?? null,
    revocationReason: passport.revocationReason ?? null,
    ownerWallet: passport.ownerWallet,
    owner,
    contractAddress: passport.contractAddress,
    transactionHash: passport.transactionHash,
    mintBlock: Number(passport.mintBlock),
    mintedAt: passport.mintTimestamp.toISOString(),
    metadataUrl: passport.metadataUrl,
    taps: {
      count: chip?.verificationCount ?? 0,
      lastAt: chip?.lastVerifiedAt?.toISOString() ?? null,
    },
    timeline,
    links: {
      publicPage: `${publicBaseUrl}${verifyPagePath(passport.environment, gtin, passport.tokenId)}`,
      digitalLink: link,
      credential: `${link}?format=vc`,
    },
  };
}
