import type { TenantScope } from '../platform/db/tenant-scope.ts';

/** Who sells: the brand (its custodial wallet) or a consumer (their invisible wallet). */
export type Seller = { kind: 'company'; companyId: string } | { kind: 'user'; userId: string };

/** What a release fixes once: the item, the parties and the price. */
export interface ResaleTerms {
  resaleId: string;
  /** The passport's company and environment (the brand's data; the seller may be one of its customers). */
  scope: TenantScope;
  tokenId: string;
  seller: Seller;
  sellerWallet: string;
  buyerEmail: string;
  buyerWallet: string;
  /** In the currency's minor units (cents), as Stripe counts; currency as Stripe writes it (lowercase). */
  price: { amount: number; currency: string };
  /** Where the buyer returns after Checkout. */
  returnUrl: string;
}
