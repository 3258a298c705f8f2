/** GS1 mod-10 check digit of the digits before it. */
export function gs1CheckDigit(body: string): number {
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    const digit = body.charCodeAt(body.length - 1 - i) - 48;
    sum += digit * (i % 2 === 0 ? 3 : 1);
  }
  return (10 - (sum % 10)) % 10;
}

/** A 14-digit GTIN whose last digit is the correct GS1 check digit. */
export function isValidGtin14(value: string): boolean {
  return /^\d{14}$/.test(value) && gs1CheckDigit(value.slice(0, 13)) === Number(value[13]);
}

/** Completes 13 digits with their check digit (handy for tests and sample data). */
export function withCheckDigit(body13: string): string {
  if (!/^\d{13}$/.test(body13)) throw new TypeError('need 13 digits');
  return `${body13}${gs1CheckDigit(body13)}`;
}

/**
 * A GTIN-8, -12, -13 or -14 as the 14 digits GS1 Digital Link uses (left-padded with zeros), when its check
 * digit is right; otherwise undefined. Padding with zeros keeps the check digit (weights count from the right).
 */
export function normalizeGtin(value: string): string | undefined {
  if (!/^(\d{8}|\d{12}|\d{13}|\d{14})$/.test(value)) return undefined;
  const gtin14 = value.padStart(14, '0');
  return isValidGtin14(gtin14) ? gtin14 : undefined;
}
