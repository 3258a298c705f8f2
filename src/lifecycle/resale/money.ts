// Stripe counts amounts in the currency's smallest unit; these currencies have none below the unit, and
// these have three decimals (https://docs.stripe.com/currencies).
export const ZERO_DECIMAL = new Set([
  'bif',
  'clp',
  'djf',
  'gnf',
  'jpy',
  'kmf',
  'krw',
  'mga',
  'pyg',
  'rwf',
  'ugx',
  'vnd',
  'vuv',
  'xaf',
  'xof',
  'xpf',
]);
export const THREE_DECIMAL = new Set(['bhd', 'jod', 'kwd', 'omr', 'tnd']);

export function currencyDecimals(currency: string): number {
  const code = currency.toLowerCase();
  if (ZERO_DECIMAL.has(code)) return 0;
  if (THREE_DECIMAL.has(code)) return 3;
  return 2;
}

/** 12900 eur → "129.00"; 1500 jpy → "1500": the spec's decimal-string prices. */
export function formatMinorUnits(amount: number, currency: string): string {
  const decimals = currencyDecimals(currency);
  if (decimals === 0) return String(amount);
  const text = String(amount).padStart(decimals + 1, '0');
  return `${text.slice(0, -decimals)}.${text.slice(-decimals)}`;
}

/** Stripe's largest amount for a charge, in minor units (99,999,999: 999,999.99 EUR, 99,999,999 JPY). */
export const MAX_CHARGE_AMOUNT = 99_999_999;

/** What the platform received for a sale, split 94/5/1; all in minor units of `currency`. */
export interface SaleProceeds {
  /** The settlement currency (the charge's balance transaction), as Stripe writes it (lowercase). */
  currency: string;
  /** What the buyer paid, as credited to the platform's balance before fees. */
  gross: number;
  /** The payment provider's processing fee on the charge, as its balance transaction reports it. */
  fee: number;
  /** gross − fee: what the platform holds from the sale, and what is split. */
  net: number;
  /** 94 % of net, rounded down. */
  seller: number;
  /** 5 % of net, rounded down. */
  brand: number;
  /** The rest: 1 % of net and the rounding (never less than 1 %), so seller + brand + platform = net. */
  platform: number;
}

/**
 * The 94/5/1 split of a sale's proceeds net of the payment provider's fee. The platform charges the buyer on
 * its own account (separate charges and transfers), so the provider's fee comes out of the platform's balance;
 * splitting the gross price would make the platform pay a fee (typically 1.5 % + 0.25 EUR or more) out of its
 * 1 %, losing money on nearly every sale. So the fee is borne by all three in proportion: each share is a
 * percentage of what is actually there to share. The seller's and the brand's shares are rounded down, the
 * platform keeps the rest; every part is a non-negative integer and the parts add up to the net exactly. A fee
 * at or above the gross (it cannot be for a real card charge) leaves nothing to share.
 */
export function splitProceeds(input: { gross: number; fee: number; currency: string }): SaleProceeds {
  const { gross, fee } = input;
  for (const [name, value] of [
    ['gross', gross],
    ['fee', fee],
  ] as const) {
    if (!Number.isSafeInteger(value) || value < 0) {
      throw new RangeError(`${name} must be a non-negative whole number of minor units, not ${value}`);
    }
  }
  const net = Math.max(0, gross - fee);
  // Exact: net × 94 stays far below 2^53 for any amount Stripe accepts.
  const seller = Math.floor((net * 94) / 100);
  const brand = Math.floor((net * 5) / 100);
  return {
    currency: input.currency.toLowerCase(),
    gross,
    fee: Math.min(fee, gross),
    net,
    seller,
    brand,
    platform: net - seller - brand,
  };
}
