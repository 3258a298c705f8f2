/**
 * WebAuthn in the browser: the API speaks JSON (base64url strings), navigator.credentials speaks ArrayBuffers.
 * These turn the API's options into what the browser takes and the browser's credential into the API's JSON.
 */
type Json = Record<string, unknown>;

export const passkeysSupported = () =>
  typeof window.PublicKeyCredential === 'function' && typeof navigator.credentials?.create === 'function';

function fromBase64url(value: string): ArrayBuffer {
  const base64 = value
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(value.length / 4) * 4, '=');
  const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  return bytes.buffer;
}

function toBase64url(buffer: ArrayBuffer | null): string {
  if (buffer === null) return '';
  let binary = '';
  for (const byte of new Uint8Array(buffer)) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

const descriptors = (list: unknown) =>
  ((list as { id: string; type?: string; transports?: string[] }[] | undefined) ?? []).map((item) => ({
    ...item,
    type: 'public-key' as const,
    id: fromBase64url(item.id),
    transports: item.transports as AuthenticatorTransport[] | undefined,
  }));

/** The cancelled or refused ceremony, said in words (the browser's own message is technical). */
function ceremonyFailure(error: unknown): Error {
  const name = error instanceof DOMException ? error.name : '';
  if (name === 'NotAllowedError') return new Error('The passkey prompt was cancelled or timed out.');
  if (name === 'InvalidStateError') return new Error('This device already holds a passkey for your account.');
  return new Error('This browser could not use a passkey.');
}

/** Runs the browser's ceremony; a cancelled or refused one becomes an error said in words. */
async function ceremony(run: () => Promise<Credential | null>): Promise<PublicKeyCredential> {
  try {
    return (await run()) as PublicKeyCredential;
  } catch (error) {
    throw ceremonyFailure(error);
  }
}

/** The credential as the API's JSON, around the ceremony's own `response` fields. */
const credentialJson = (credential: PublicKeyCredential, response: Json): Json => ({
  id: credential.id,
  rawId: toBase64url(credential.rawId),
  type: 'public-key',
  response,
  clientExtensionResults: {},
  ...(credential.authenticatorAttachment
    ? { authenticatorAttachment: credential.authenticatorAttachment }
    : {}),
});

/** Creates a passkey from the API's registration options; answers the JSON the API verifies. */
export async function createPasskey(options: Json): Promise<Json> {
  const user = options.user as { id: string; name: string; displayName: string };
  const publicKey: PublicKeyCredentialCreationOptions = {
    ...(options as unknown as PublicKeyCredentialCreationOptions),
    challenge: fromBase64url(String(options.challenge)),
    user: { ...user, id: fromBase64url(user.id) },
    excludeCredentials: descriptors(options.excludeCredentials),
  };
  const credential = await ceremony(() => navigator.credentials.create({ publicKey }));
  const response = credential.response as AuthenticatorAttestationResponse;
  return credentialJson(credential, {
    clientDataJSON: toBase64url(response.clientDataJSON),
    attestationObject: toBase64url(response.attestationObject),
    transports: typeof response.getTransports === 'function' ? response.getTransports() : [],
  });
}

/** Signs the API's sign-in challenge with a passkey; answers the JSON the API verifies. */
export async function signWithPasskey(options: Json): Promise<Json> {
  const publicKey: PublicKeyCredentialRequestOptions = {
    ...(options as unknown as PublicKeyCredentialRequestOptions),
    challenge: fromBase64url(String(options.challenge)),
    allowCredentials: descriptors(options.allowCredentials),
  };
  const credential = await ceremony(() => navigator.credentials.get({ publicKey }));
  const response = credential.response as AuthenticatorAssertionResponse;
  return credentialJson(credential, {
    clientDataJSON: toBase64url(response.clientDataJSON),
    authenticatorData: toBase64url(response.authenticatorData),
    signature: toBase64url(response.signature),
    ...(response.userHandle ? { userHandle: toBase64url(response.userHandle) } : {}),
  });
}

/**
 * Browsers bind passkeys to a domain name (the relying party id); at an IP address such as 127.0.0.1 or [::1]
 * they refuse every ceremony. Said in words, with the address that works (localhost), before anyone tries.
 */
export function passkeyAddressProblem(
  location: Location = window.location,
): { host: string; url: string; text: string } | null {
  const host = location.hostname;
  const ip = /^\d{1,3}(\.\d{1,3}){3}$/.test(host) || host.startsWith('[') || host.includes(':');
  if (!ip) return null;
  const url = `${location.protocol}//localhost${location.port ? `:${location.port}` : ''}${location.pathname}`;
  return {
    host,
    url,
    text: `Passkeys do not work at an IP address (${host}): browsers tie them to a name. Open ${url} to add or use one.`,
  };
}
