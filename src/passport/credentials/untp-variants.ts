import type { EntityManager } from '@mikro-orm/postgresql';
import {
  CREDENTIALS_V2_CONTEXT,
  UNTP_0_7_0_CONTEXT,
  untpExtensionContextUrl,
  untpVariantsContextUrl,
} from '../../standards/credentials/contexts.ts';
import { contentHash } from '../../standards/credentials/issuer.ts';
import type { SigningKey } from '../../standards/credentials/issuer-keys.ts';
import { ensureStatusEntry } from '../../standards/credentials/status-entries.ts';
import { statusListUrl } from '../../standards/credentials/status-list.ts';
import { digitalLink } from '../../standards/gs1/digital-link.ts';
import { contentSpecifications } from '../content/content-specification.ts';
import { type DisclosurePolicy, fieldPattern, type Role } from '../content/disclosure.ts';
import { discloseContent } from '../disclosure/disclose-content.ts';
import { itemSections } from '../levels/item-sections.ts';
import { type PassportRecord, passportGtin } from '../views/lookup.ts';
import type { PassportCredentialDeps } from './passport-credential.ts';
import { signedOnce, type UntpForms, untpCredentialSlot } from './signed-store.ts';
import {
  levelLinks,
  signUntp,
  UntpUnavailable,
  untpHeader,
  untpMissing,
  untpProduct,
} from './untp-credential.ts';

/**
 * UNTP 0.7.0 per-audience variants of a passport's credential (issue 25, docs/untp.md "Per-audience
 * variants"): one signed credential per audience (`accessRole`), each carrying the passport's product-group data
 * cut by the disclosure policy to what that audience reads. The public one (`Anonymous`) carries, instead of the
 * restricted fields, claim stubs (which restricted data exists and which audiences read it, no values) and
 * `otherVariants` (where the others are). Passports without product-group data have one credential, as before.
 */
export const ACCESS_ROLES = ['Anonymous', 'Customer', 'Regulator', 'Recycler', 'Auditor'] as const;
export type AccessRole = (typeof ACCESS_ROLES)[number];

/**
 * The disclosure roles of each audience: the variant holds the fields any of them reads, and a caller holding
 * one of them (or the passport's own company) may fetch it. Repairers read the Recycler variant: under
 * Annex XIII they are the same "legitimate interest" audience (the policy gives them the same fields; a unit
 * test keeps it so).
 */
export const VARIANT_ROLES: Readonly<Record<AccessRole, readonly Role[]>> = {
  Anonymous: ['public'],
  Customer: ['public', 'customer'],
  Regulator: ['public', 'authority'],
  Recycler: ['public', 'recycler', 'repairer'],
  Auditor: ['public', 'notifiedBody'],
};

/** Whether a caller with `roles` (owner: every variant) may fetch the variant of `accessRole`. */
export function mayReadVariant(caller: { owner: boolean; roles: ReadonlySet<Role> }, accessRole: AccessRole) {
  if (caller.owner || accessRole === 'Anonymous') return true;
  // `public` is in every variant's roles (its fields are in all of them) but unlocks none beyond Anonymous.
  return VARIANT_ROLES[accessRole].some((role) => role !== 'public' && caller.roles.has(role));
}

/** The audiences whose variant a caller may fetch. */
export function readableVariants(caller: { owner: boolean; roles: ReadonlySet<Role> }): AccessRole[] {
  return ACCESS_ROLES.filter((accessRole) => mayReadVariant(caller, accessRole));
}

/** Where a variant is: the Digital Link with `format` (untp or vc-jwt) and, but for the public one, its audience. */
export function variantUrl(
  anchor: string,
  accessRole: AccessRole,
  format: 'untp' | 'vc-jwt' = 'untp',
): string {
  return accessRole === 'Anonymous'
    ? `${anchor}?format=${format}`
    : `${anchor}?format=${format}&accessRole=${accessRole}`;
}

/**
 * The passport's product-group data, one entry per specification this process knows: an item's merged over its
 * model's and batch's (docs/granularity.md), so every audience's variant states the merged view, cut after the
 * merge (a model's restricted field stays restricted).
 */
export async function productGroupData(em: EntityManager, passportId: number) {
  const sections = await itemSections(em, passportId);
  return sections.flatMap((section) => {
    const spec = contentSpecifications.get(section.specificationId);
    return spec ? [{ specificationId: spec.id, policy: spec.policy, data: section.data }] : [];
  });
}

/**
 * Claim stubs of the restricted data the public variant leaves out: one per object holding restricted fields
 * (its JSON pointer pattern, `*` for array items), naming the audiences that read them — never a value.
 */
export function claimStubs(
  specificationId: string,
  data: Record<string, unknown>,
  policy: DisclosurePolicy,
): Record<string, unknown>[] {
  const groups = new Map<string, Set<AccessRole>>();
  for (const pointer of leafPointers(data)) {
    const pattern = fieldPattern(pointer);
    const entry = policy[pattern];
    if (!entry || entry.roles.includes('public')) continue;
    const parent = pattern.slice(0, pattern.lastIndexOf('/')) || '/';
    const audiences = groups.get(parent) ?? new Set<AccessRole>();
    for (const accessRole of ACCESS_ROLES) {
      if (VARIANT_ROLES[accessRole].some((role) => entry.roles.includes(role))) audiences.add(accessRole);
    }
    groups.set(parent, audiences);
  }
  return [...groups].map(([pattern, audiences]) => ({
    type: ['ClaimStub'],
    id: `${specificationId}#${pattern}`,
    name: pattern,
    accessRole: ACCESS_ROLES.filter((accessRole) => audiences.has(accessRole)),
  }));
}

function leafPointers(value: unknown, pointer = ''): string[] {
  if (Array.isArray(value) && value.some((item) => typeof item === 'object' && item !== null)) {
    return value.flatMap((item, index) => leafPointers(item, `${pointer}/${index}`));
  }
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    return Object.entries(value).flatMap(([name, child]) =>
      leafPointers(child, `${pointer}/${name.replaceAll('~', '~0').replaceAll('/', '~1')}`),
    );
  }
  return [pointer];
}

/**
 * The variant's unsigned credential: UNTP's DigitalProductPassport as `?format=untp` states it, plus the
 * audience (`accessRole`), the product-group data cut for it (`credentialSubject.productGroupData`, a JSON
 * literal per specification), and for the public variant `claimStubs` and `otherVariants`.
 */
async function variantContent(
  em: EntityManager,
  deps: PassportCredentialDeps,
  passport: PassportRecord,
  accessRole: AccessRole,
  key: SigningKey,
) {
  const header = await untpHeader(em, passport, deps.publicBaseUrl);
  const missing = untpMissing(passport, header);
  if (missing.length > 0) throw new UntpUnavailable(missing);
  const [entry, groups, links] = await Promise.all([
    ensureStatusEntry(em, passport),
    productGroupData(em, passport.id),
    levelLinks(em, passport.id, deps.publicBaseUrl),
  ]);
  const listUrl = statusListUrl(deps.publicBaseUrl, passport.environment, entry.list);
  const anchor = digitalLink(
    deps.publicBaseUrl,
    passport.environment,
    passportGtin(passport),
    passport.tokenId,
  );
  const roles = VARIANT_ROLES[accessRole];
  const product = untpProduct(passport, header, deps.publicBaseUrl, links);
  const subject: Record<string, unknown> = {
    ...product,
    productGroupData: Object.fromEntries(
      groups.map((group) => [group.specificationId, discloseContent(group.data, group.policy, roles)]),
    ),
    ...(accessRole === 'Anonymous'
      ? { claimStubs: groups.flatMap((g) => claimStubs(g.specificationId, g.data, g.policy)) }
      : {}),
  };
  return {
    '@context': [
      CREDENTIALS_V2_CONTEXT,
      UNTP_0_7_0_CONTEXT,
      untpExtensionContextUrl(deps.publicBaseUrl),
      untpVariantsContextUrl(deps.publicBaseUrl),
    ],
    type: ['DigitalProductPassport', 'VerifiableCredential'],
    issuer: {
      type: ['CredentialIssuer'],
      id: key.did,
      name: `Digital Product Passport service (${new URL(deps.publicBaseUrl).host})`,
    },
    name: `Digital Product Passport: ${product.name} (${accessRole})`,
    accessRole,
    ...(accessRole === 'Anonymous'
      ? {
          otherVariants: ACCESS_ROLES.filter((other) => other !== 'Anonymous').map((other) => ({
            accessRole: other,
            variantURL: variantUrl(anchor, other),
          })),
        }
      : {}),
    credentialStatus: {
      id: `${listUrl}#${entry.index}`,
      type: 'BitstringStatusListEntry',
      statusPurpose: 'revocation',
      statusListIndex: entry.index,
      statusListCredential: listUrl,
    },
    credentialSubject: subject,
  };
}

/** Both secured forms of one audience's variant (throws UntpUnavailable when UNTP's required facts lack). */
export async function untpVariant(
  em: EntityManager,
  deps: PassportCredentialDeps,
  passport: PassportRecord,
  accessRole: AccessRole,
): Promise<UntpForms> {
  const key = await deps.issuer.signingKey(passport.environment);
  const content = await variantContent(em, deps, passport, accessRole, key);
  const hash = contentHash({ untpVariant: content, verificationMethod: key.verificationMethod });
  return signedOnce(em, untpCredentialSlot(passport.id, accessRole), hash, signUntp(deps, key, content));
}
