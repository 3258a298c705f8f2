/** A domain failure with a stable code; the API maps it to a problem response. */
export class DomainError extends Error {
  readonly code: string;
  readonly kind:
    | 'invalid'
    | 'unauthenticated'
    | 'payment_required'
    | 'forbidden'
    | 'not_found'
    | 'conflict'
    | 'gone'
    | 'rejected'
    | 'unsupported'
    | 'locked'
    | 'unavailable';
  constructor(kind: DomainError['kind'], code: string, message: string) {
    super(message);
    this.name = 'DomainError';
    this.kind = kind;
    this.code = code;
  }
}
