/** Largest envelope (raw body) a delivery sends. */
export const MAX_WEBHOOK_PAYLOAD_BYTES = 256 * 1024;
/** How much of a receiver's response body is stored with an attempt. */
export const MAX_RESPONSE_SNIPPET_BYTES = 2 * 1024;
/** Time one delivery attempt may take, connect to last byte. */
export const WEBHOOK_ATTEMPT_TIMEOUT_MS = 15_000;
