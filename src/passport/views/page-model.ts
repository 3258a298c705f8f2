import { explorerTxUrl } from '../../adapters/chain/explorer.ts';
import type { Environment } from '../../platform/config/config.ts';
import { digitalLink } from '../../standards/gs1/digital-link.ts';
import { contentSpecifications } from '../content/content-specification.ts';
import { escapePointer, sourcesOf } from '../content/merge-layers.ts';
import type { ProductGroupEntry } from '../content/pinned-sql.ts';
import { disclosedProductGroupData } from '../disclosure/product-group-view.ts';
import { type ItemLevel, mergedProductGroupData } from '../levels/item-levels.ts';
import { dppIdOf } from '../record/passport-header.ts';
import type { PageLanguage } from './i18n/languages.ts';
import { levelPagePath } from './level-links.ts';
import { linksetLinkHeader } from './linkset.ts';
import { type PassportRecord, type ProvenanceEvent, passportBatch, passportGtin } from './lookup.ts';
import { pageImage } from './page-image.ts';
import { passportTexts } from './passport-texts.ts';
import { type PublicStatus, publicStatus } from './status.ts';
import type { ReadVerdict } from './tap-verdict.ts';

export interface TimelineEntry {
  action: string;
  label: string;
  place: string | null;
  latitude: number | null;
  longitude: number | null;
  time: Date;
  transactionHash: string | null;
  /** The block explorer's page of the transaction (CHAIN_EXPLORER_URL_*), when one is configured. */
  transactionUrl: string | null;
}

export type PageVerdict =
  | { kind: 'none' }
  | { kind: 'expired' }
  | { kind: 'authentic' | 'replayed' | 'forged' | 'unverifiable'; checkedAt: Date; reopened?: Reopened };
type Reopened = { openings: number; since: Date };

/** Everything the verification page shows, from the passport, its events and the tap verdict if any. */
export interface VerifyPageModel {
  /** The batch and model passports the item belongs to (most general first), each with its page. */
  partOf?: { granularity: 'model' | 'batch'; label: string; code: string; href: string }[];
  environment: string;
  gtin: string;
  serial: string;
  /** The page's language, and the language the passport's own texts (name, description, care) are shown in. */
  language: PageLanguage;
  textsLanguage: string;
  name: string;
  description: string | null;
  care: string | null;
  imagePath: string | null;
  manufacturer: string;
  manufacturerAddress: string | null;
  originCountry: string | null;
  batch: string | null;
  category: string | null;
  materials: { name: string; percentage: number }[];
  status: PublicStatus;
  revokedAt: Date | null;
  revocationReason: string | null;
  conformityUrl: string | null;
  mintedAt: Date;
  mintTransaction: string;
  mintTransactionUrl: string | null;
  contractAddress: string;
  verificationCount: number;
  timeline: TimelineEntry[];
  verdict: PageVerdict;
  links: { self: string; vc: string; linkset: string; aas: string; linkHeader: string };
  /**
   * Product-group data (a battery's), merged over the item's model and batch and then cut to the public's fields
   * (docs/disclosure.md); none when it has none. `inherited`: the values a level gave (RFC 6901 pointer into
   * `data` → that level), so the page can say where each comes from.
   */
  productGroups?: PageProductGroup[];
}

export interface PageProductGroup {
  /** The content specification's id; `title` is its English title, the page's fallback. */
  specification: string;
  title: string;
  data: Record<string, unknown>;
  inherited?: Record<string, 'model' | 'batch'>;
}

/**
 * What the page shows of an item's product-group data and its levels: the merged data cut to the public's
 * fields, each inherited value marked with its level, and the levels' pages (most general first).
 */
export function itemPageLevels(
  item: { serviceUid: string; environment: Environment },
  own: readonly ProductGroupEntry[],
  levels: readonly ItemLevel[],
  publicBaseUrl: string,
): Required<Pick<VerifyPageModel, 'productGroups' | 'partOf'>> {
  const merged = mergedProductGroupData(dppIdOf(item.serviceUid), own, levels);
  const disclosed = disclosedProductGroupData(merged.entries, ['public']);
  const granularityOf = new Map(levels.map((level) => [dppIdOf(level.serviceUid), level.granularity]));
  return {
    productGroups: Object.entries(disclosed).map(([id, data]) => {
      const inherited: Record<string, 'model' | 'batch'> = {};
      const prefix = `/${escapePointer(id)}`;
      for (const [pointer, from] of Object.entries(sourcesOf({ [id]: data }, merged.sources ?? {}))) {
        const granularity = granularityOf.get(from);
        if (granularity) inherited[pointer.slice(prefix.length)] = granularity;
      }
      return { specification: id, title: contentSpecifications.get(id)?.title ?? id, data, inherited };
    }),
    partOf: levels.map((level) => ({
      granularity: level.granularity,
      label: level.granularity === 'model' ? `model ${level.gtin}` : `batch ${level.lot}`,
      code: (level.granularity === 'model' ? level.gtin : level.lot) ?? '',
      href: `${publicBaseUrl}${levelPagePath({ ...level, environment: item.environment })}`,
    })),
  };
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

export function pageVerdict(read: ReadVerdict | undefined): PageVerdict {
  if (!read) return { kind: 'none' };
  if (!read.ok) return read.reason === 'expired' ? { kind: 'expired' } : { kind: 'none' };
  const reopened = read.claims.reopened;
  const more = reopened
    ? { reopened: { openings: reopened.openings, since: new Date(reopened.since * 1000) } }
    : {};
  return { kind: read.claims.verdict, checkedAt: new Date(read.claims.checkedAt * 1000), ...more };
}

export interface PageOptions {
  publicBaseUrl: string;
  language: PageLanguage;
  /** The language the brand writes its passports in (its branding settings; English when unset). */
  brandLanguage: string;
  /** CHAIN_EXPLORER_URL_* of the passport's environment. */
  explorerTemplate: string | undefined;
  /** Origins a product image may come from besides ours (VERIFY_IMAGE_HOSTS). */
  imageOrigins: readonly string[];
}

export function verifyPageModel(
  passport: PassportRecord,
  events: readonly ProvenanceEvent[],
  verdict: PageVerdict,
  options: PageOptions,
): VerifyPageModel {
  const { publicBaseUrl, explorerTemplate } = options;
  const texts = passportTexts(passport.metadata, options.language, options.brandLanguage);
  const custom = passport.metadata.custom_dpp_data ?? {};
  const gtin = passportGtin(passport);
  const composition = custom.material_composition;
  const conformity = text(custom.conformity_url);
  const self = digitalLink(publicBaseUrl, passport.environment, gtin, passport.tokenId);
  return {
    environment: passport.environment,
    gtin,
    serial: passport.tokenId,
    language: options.language,
    textsLanguage: texts.language,
    name: texts.name ?? `Product ${passport.tokenId}`,
    description: texts.description,
    care: texts.care,
    imagePath: pageImage(text(passport.metadata.image), options.imageOrigins),
    manufacturer: text(custom.manufacturer_name) ?? passport.companyName,
    manufacturerAddress: text(custom.manufacturer_address),
    originCountry: text(custom.originCountry),
    batch: passportBatch(passport) ?? null,
    category: text(custom.category),
    materials:
      composition && typeof composition === 'object'
        ? Object.entries(composition as Record<string, unknown>)
            .filter((entry): entry is [string, number] => typeof entry[1] === 'number')
            .map(([name, percentage]) => ({ name, percentage }))
            // The largest share first (stored JSON keeps no order).
            .sort((a, b) => b.percentage - a.percentage)
        : [],
    status: publicStatus(passport),
    revokedAt: passport.revokedAt,
    revocationReason: passport.revocationReason,
    conformityUrl: conformity && /^https?:\/\//.test(conformity) ? conformity : null,
    mintedAt: passport.mintTimestamp,
    mintTransaction: passport.transactionHash,
    mintTransactionUrl: explorerTxUrl(explorerTemplate, passport.transactionHash),
    contractAddress: passport.contractAddress,
    verificationCount: passport.verificationCount,
    timeline: events.map((event) => ({
      action: event.action,
      // The page names the step in its language (the message files' `history`); this is the fallback.
      label: event.action,
      place: event.locationName,
      latitude: event.latitude,
      longitude: event.longitude,
      time: event.timestamp,
      transactionHash: event.transactionHash,
      transactionUrl: event.transactionHash ? explorerTxUrl(explorerTemplate, event.transactionHash) : null,
    })),
    verdict,
    links: {
      self,
      vc: `${self}?format=vc`,
      linkset: `${self}?linkType=linkset`,
      aas: `${self}?format=aas`,
      linkHeader: linksetLinkHeader(self),
    },
  };
}
