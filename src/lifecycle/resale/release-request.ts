import type { EntityManager } from '@mikro-orm/postgresql';
import { getAddress } from 'ethers';
import { z } from 'zod';
import { companyCustodyAddress } from '../../accounts/wallets/custody.ts';
import { userWalletAddress } from '../../accounts/wallets/user-wallet.ts';
import type { Environment } from '../../platform/config/config.ts';
import { Passport } from '../../platform/db/entities/index.ts';
import type { TenantScope } from '../../platform/db/tenant-scope.ts';
import { DomainError } from '../../platform/errors.ts';
import type { ResaleTerms } from '../../processes/resale-terms.ts';
import { digitalLink, resolverBase } from '../../standards/gs1/digital-link.ts';
import { newResaleId } from './resale-records.ts';

/** Stripe's smallest charge is about 0.50 in most currencies; the largest a Checkout Session takes is 999,999.99. */
const MAX_AMOUNT = 99_999_999;

export const releaseBody = z
  .object({
    tokenId: z.string().regex(/^[1-9]\d{0,77}$/, 'token ids are decimal digits'),
    price: z
      .object({
        amount: z
          .number()
          .int()
          .min(50)
          .max(MAX_AMOUNT)
          .describe('In the currency’s smallest unit, as Stripe counts (12900 = 129.00 EUR).'),
        currency: z
          .string()
          .regex(/^[A-Za-z]{3}$/, 'an ISO 4217 code such as EUR')
          .transform((c) => c.toLowerCase()),
      })
      .strict(),
    buyerEmail: z
      .email()
      .max(254)
      .describe('The buyer: their invisible wallet is derived from this address.'),
    returnUrl: z
      .url()
      .max(2000)
      .optional()
      .describe('Where Checkout sends the buyer back (default: the passport page).'),
    challengeId: z
      .uuid({ message: 'challengeId is the id POST /v1/dpp/release/challenge answered' })
      .optional()
      .describe(
        'An owner’s release (user token) only: from POST /v1/dpp/release/challenge; the tap in nfcData must be ' +
          'read after it (used once).',
      ),
    nfcData: z
      .string()
      .min(1)
      .max(2000)
      .optional()
      .describe(
        'An owner’s release only: the URL the chip wrote (read with Web NFC), or its query: picc_data/e and cmac/c.',
      ),
  })
  .strict();

export type ReleaseRequest = z.infer<typeof releaseBody>;

/**
 * The terms of a brand's release, checked: the passport is the company's, still active, and still held by
 * the company's custodial wallet (once a customer owns it, they release it themselves).
 */
export async function brandReleaseTerms(
  em: EntityManager,
  scope: TenantScope,
  request: ReleaseRequest,
  settings: {
    custodyMasterSecret: string | undefined;
    walletMasterSecret: string | undefined;
    publicBaseUrl: string;
  },
): Promise<ResaleTerms> {
  const passport = await em.findOne(Passport, {
    tokenId: request.tokenId,
    companyId: scope.companyId,
    environment: scope.environment,
  });
  if (!passport) throw new DomainError('not_found', 'token_not_found', `No passport ${request.tokenId}.`);
  if (passport.status === 'RECYCLED') {
    throw new DomainError('conflict', 'token_recycled', `Passport ${request.tokenId} is recycled.`);
  }
  const custody = companyCustodyAddress(settings.custodyMasterSecret, scope.companyId, scope.environment);
  if (getAddress(passport.ownerWallet) !== custody) {
    throw new DomainError(
      'rejected',
      'not_token_owner',
      `Passport ${request.tokenId} belongs to ${passport.ownerWallet} now; its owner releases it.`,
    );
  }
  return {
    resaleId: newResaleId(),
    scope,
    tokenId: request.tokenId,
    seller: { kind: 'company', companyId: scope.companyId },
    sellerWallet: custody,
    buyerEmail: request.buyerEmail,
    buyerWallet: userWalletAddress(settings.walletMasterSecret, request.buyerEmail),
    price: request.price,
    returnUrl:
      request.returnUrl ??
      passportPage(settings.publicBaseUrl, scope.environment, passport.gtin, passport.tokenId),
  };
}

export interface OwnedPassport {
  company_id: string;
  token_id: string;
  gtin: string | null;
  status: string;
  chip_uid: string | null;
}

/**
 * The passport (of whichever brand) the person's invisible wallet holds, not recycled. Anyone else's token is
 * a 404, as if it did not exist.
 */
export async function ownedPassport(
  em: EntityManager,
  environment: Environment,
  ownerEmail: string,
  tokenId: string,
  walletMasterSecret: string | undefined,
): Promise<OwnedPassport> {
  const wallet = userWalletAddress(walletMasterSecret, ownerEmail);
  const [passport] = await em.execute<OwnedPassport[]>(
    `select company_id, token_id, gtin, status, chip_uid from passports
     where environment = ? and token_id = ? and lower(owner_wallet) = lower(?)`,
    [environment, tokenId, wallet],
  );
  if (!passport) throw new DomainError('not_found', 'token_not_found', `You hold no passport ${tokenId}.`);
  if (passport.status === 'RECYCLED') {
    throw new DomainError('conflict', 'token_recycled', `Passport ${tokenId} is recycled.`);
  }
  return passport;
}

/**
 * The terms of a consumer's release: the passport (of whichever brand) is held by the caller's invisible
 * wallet (ownedPassport); the brand stays the passport's company.
 */
export function ownerReleaseTerms(
  passport: OwnedPassport,
  environment: Environment,
  owner: { userId: number; email: string },
  request: ReleaseRequest,
  settings: { walletMasterSecret: string | undefined; publicBaseUrl: string },
): ResaleTerms {
  const wallet = userWalletAddress(settings.walletMasterSecret, owner.email);
  return {
    resaleId: newResaleId(),
    scope: { companyId: passport.company_id, environment },
    tokenId: request.tokenId,
    seller: { kind: 'user', userId: String(owner.userId) },
    sellerWallet: wallet,
    buyerEmail: request.buyerEmail,
    buyerWallet: userWalletAddress(settings.walletMasterSecret, request.buyerEmail),
    price: request.price,
    returnUrl:
      request.returnUrl ??
      passportPage(settings.publicBaseUrl, environment, passport.gtin, passport.token_id),
  };
}

/** Where Checkout sends the buyer back by default: the passport's page (its GS1 Digital Link). */
function passportPage(
  publicBaseUrl: string,
  environment: Environment,
  gtin: string | null | undefined,
  tokenId: string,
): string {
  return gtin
    ? digitalLink(publicBaseUrl, environment, gtin, tokenId)
    : resolverBase(publicBaseUrl, environment);
}
