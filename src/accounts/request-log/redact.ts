/**
 * What the request log never keeps (docs/console.md "Developers › Logs"). Two kinds of rule, applied to every
 * request and response body, query and header before anything is stored:
 * - by name: a member whose name (case, `_` and `-` ignored) is a credential's has its text or number replaced;
 *   objects under such a name are walked (`apiKey` in a response is the key's public description);
 * - by shape: any string anywhere that holds an API key, a webhook secret, a JWT, a bearer credential or a card
 *   number (15–19 digits passing Luhn: not 13 or 14, the lengths of GTINs) has that part replaced, whatever its name.
 */

export const REDACTED = '[redacted]';

const SECRET_NAME_ENDINGS = [
  'password',
  'passwd',
  'passphrase',
  'secret',
  'token',
  'apikey',
  'privatekey',
  'readkey',
  'masterkey',
  'signingkey',
  'encryptionkey',
  'accesskey',
  'recoverycode',
  'recoverycodes',
  'cardnumber',
  'accountnumber',
  'routingnumber',
];
const SECRET_NAMES = new Set([
  'key',
  'authorization',
  'proxyauthorization',
  'cookie',
  'setcookie',
  'cvc',
  'cvv',
  'cvc2',
  'pan',
  'pin',
  'iban',
  'otp',
  'xapikey',
]);

/** Whether a member of this name holds a credential (or card or bank data). */
export function isSecretName(name: string): boolean {
  const normal = name.toLowerCase().replace(/[-_\s]/g, '');
  return SECRET_NAMES.has(normal) || SECRET_NAME_ENDINGS.some((ending) => normal.endsWith(ending));
}

function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

const SHAPES: [RegExp, (match: string, ...groups: string[]) => string][] = [
  // API keys keep their public prefix (the one the key list shows), so the log still says which key.
  [
    /\bsk_(live|test)_([0-9A-Za-z]{8})[0-9A-Za-z]{32}\b/g,
    (_m, env, start) => `sk_${env}_${start}…${REDACTED}`,
  ],
  [/\bwhsec_[A-Za-z0-9+/=]{8,}/g, () => `whsec_${REDACTED}`],
  [/\beyJ[\w-]*\.[\w-]+\.[\w-]*/g, () => `${REDACTED} (JWT)`],
  [/\b(Bearer|Basic)\s+[^\s"',;]+/gi, (_m, scheme) => `${scheme} ${REDACTED}`],
  [
    /\b\d(?:[ -]?\d){14,18}\b/g,
    (match) => (luhn(match.replace(/[ -]/g, '')) ? `${REDACTED} (card number)` : match),
  ],
];

/** A string with every secret shape in it replaced. */
export function redactText(text: string): string {
  let out = text;
  for (const [pattern, replace] of SHAPES) out = out.replace(pattern, replace as (m: string) => string);
  return out;
}

/** A copy of a JSON value with every secret member and shape replaced. */
export function redactJson(value: unknown, secretName = false): unknown {
  if (typeof value === 'string') return secretName ? REDACTED : redactText(value);
  if (typeof value === 'number' || typeof value === 'bigint') return secretName ? REDACTED : value;
  if (Array.isArray(value)) return value.map((item) => redactJson(item, secretName));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([name, member]) => [
        name,
        redactJson(member, isSecretName(name)),
      ]),
    );
  }
  return value;
}

/** Header values as a log shows them: a credential header keeps only its scheme, a key its public prefix. */
export function redactHeaders(
  headers: Record<string, string | string[] | undefined>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, raw] of Object.entries(headers)) {
    if (raw === undefined) continue;
    const value = Array.isArray(raw) ? raw.join(', ') : raw;
    if (name === 'authorization' || name === 'proxy-authorization') {
      const key = /^Bearer\s+(sk_(?:live|test)_[0-9A-Za-z]{8})[0-9A-Za-z]{32}\s*$/i.exec(value);
      out[name] = key ? `Bearer ${key[1]}…${REDACTED}` : `${value.split(/\s+/)[0] ?? ''} ${REDACTED}`.trim();
    } else {
      out[name] = isSecretName(name) ? REDACTED : redactText(value);
    }
  }
  return out;
}
