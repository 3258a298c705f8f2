// Stripe counts amounts in the currency's smallest unit; these currencies have none below the unit, and
// these have three decimals (https://docs.stripe.com/currencies).
const ZERO_DECIMAL = new Set([
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
const THREE_DECIMAL = new Set(['bhd', 'jod', 'kwd', 'omr', 'tnd']);

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

/**
 * The 94/5/1 split of a sale in minor units: the seller 94 %, the brand 5 %, the platform the rest (1 % and
 * the rounding, so the parts always add up to the amount).
 */
export function splitSale(amount: number): { seller: number; brand: number; platform: number } {
  const seller = Math.floor((amount * 94) / 100);
  const brand = Math.floor((amount * 5) / 100);
  return { seller, brand, platform: amount - seller - brand };
}
