/**
 * What we keep of a payment provider's refusal. Stripe's error messages are for the integrator, not for our
 * clients, and some quote the request back (stripe-mock, for one, quotes the Authorization header with the
 * platform's secret key). So nothing of a provider's message reaches an answer, a workflow failure or a log
 * unredacted: only its class, its documented error code and its request id.
 */
export interface ProviderRefusal {
  /** The SDK's error class, e.g. StripeInvalidRequestError, StripeAuthenticationError. */
  providerType: string;
  /** Stripe's documented error code (https://docs.stripe.com/error-codes), when it gave one. */
  code: string | null;
  statusCode: number | null;
  requestId: string | null;
}

/** Refusals a retry would meet again: the request, the card, or our credentials. */
const REFUSALS = new Set([
  'StripeInvalidRequestError',
  'StripeCardError',
  'StripeAuthenticationError',
  'StripePermissionError',
]);

/** Our credentials were refused: the operator's to fix, not the caller's. */
export function isCredentialRefusal(providerType: string | null | undefined): boolean {
  return providerType === 'StripeAuthenticationError' || providerType === 'StripePermissionError';
}

/** The refusal of a Stripe SDK error, or undefined when the error is not a refusal (network, 5xx, ours). */
export function providerRefusal(error: unknown): ProviderRefusal | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const e = error as { type?: unknown; code?: unknown; statusCode?: unknown; requestId?: unknown };
  if (typeof e.type !== 'string' || !REFUSALS.has(e.type)) return undefined;
  return {
    providerType: e.type,
    code: stableCode(e.code) ?? null,
    statusCode: typeof e.statusCode === 'number' ? e.statusCode : null,
    requestId:
      typeof e.requestId === 'string' && /^req_[A-Za-z0-9]{1,64}$/.test(e.requestId) ? e.requestId : null,
  };
}

/** A provider's error code, when it is one (lowercase words), never free text. */
export function stableCode(code: unknown): string | undefined {
  return typeof code === 'string' && /^[a-z][a-z0-9_]{0,63}$/.test(code) ? code : undefined;
}

/**
 * A provider's message with anything key-like removed, for the operator's log only: API keys (sk_, rk_, pk_),
 * webhook secrets (whsec_), quoted Authorization values and the given secrets themselves.
 */
export function redactProviderMessage(message: unknown, secrets: (string | undefined)[] = []): string {
  let text = typeof message === 'string' ? message.slice(0, 2000) : '';
  for (const secret of secrets) {
    if (secret && secret.length >= 8) text = text.split(secret).join('[redacted]');
  }
  return text
    .replace(/Authorization[^.]*?'[^']*'/gi, 'Authorization [redacted]')
    .replace(/\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9_]*/g, '[redacted key]')
    .replace(/\bwhsec_[A-Za-z0-9+/=_-]*/g, '[redacted secret]')
    .replace(/\bBearer\s+\S+/gi, 'Bearer [redacted]');
}
