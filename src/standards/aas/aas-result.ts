/**
 * The AAS Part 2 `Result` an error answers with (IDTA-01002 3.0 §11: a `messages` array of Message objects
 * with code, messageType, text and timestamp).
 */
export interface AasResult {
  messages: { code: string; messageType: 'Error'; text: string; timestamp: string }[];
}

/**
 * The Result of an error: one message with the status as its code, and one more per invalid field (its path,
 * what is wrong, and our stable code in the text).
 */
export function aasResult(
  status: number,
  text: string,
  fieldErrors: readonly { path: string; message: string; code: string }[] = [],
  now = new Date(),
): AasResult {
  const timestamp = now.toISOString();
  const code = String(status);
  return {
    messages: [
      { code, messageType: 'Error', text, timestamp },
      ...fieldErrors.map((e) => ({
        code,
        messageType: 'Error' as const,
        text: `${e.path}: ${e.message} (${e.code})`,
        timestamp,
      })),
    ],
  };
}

/** The AAS API's base path (IDTA-01002 3.0 HTTP/REST API); test passports answer under `/test` + it. */
export const AAS_API_BASE = '/api/v3.0';

/** Under the AAS API: `/api/v3.0…`, or `/test/api/v3.0…` before the test prefix is taken off. */
export function isAasApiPath(path: string): boolean {
  const bare = path.startsWith('/test/') ? path.slice('/test'.length) : path;
  return bare === AAS_API_BASE || bare.startsWith(`${AAS_API_BASE}/`);
}
