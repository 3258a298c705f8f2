/** Raised for any invalid List Filter (syntax, unknown attribute, wrong value type). Maps to INVALID_ARGUMENT. */
export class VisibilityQueryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'VisibilityQueryError';
  }
}
