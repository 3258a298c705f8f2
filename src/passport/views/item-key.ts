import { DomainError } from '../../platform/errors.ts';

/** What a Digital Link names: GTIN (14 digits), the batch if the path has one, the serial (token id). */
export interface ItemKey {
  gtin: string;
  batch?: string | undefined;
  serial: string;
}

export function passportNotFound(key: ItemKey): DomainError {
  return new DomainError(
    'not_found',
    'passport_not_found',
    `No passport for GTIN ${key.gtin} and serial ${key.serial}.`,
  );
}

/** True when a passport's GTIN (fourteen zeros without one) and, if the link has one, its batch match. */
export function namesPassport(
  passport: { gtin: string | null; batch: string | null | undefined },
  key: ItemKey,
): boolean {
  if ((passport.gtin ?? '00000000000000') !== key.gtin) return false;
  return key.batch === undefined || passport.batch === key.batch;
}
