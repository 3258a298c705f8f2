/** The passkey page: an e-mail, the user token (to add a passkey), and the two ceremonies. */
export const PASSKEY_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Passkeys</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem}
label,input,button{display:block;width:100%;margin:.4rem 0}input,button{padding:.5rem;font:inherit}
pre{white-space:pre-wrap;word-break:break-all;background:#f4f4f4;padding:.5rem}</style>
<script src="/passkeys/passkeys.js" defer></script></head>
<body><h1>Passkeys</h1>
<label for="email">E-mail</label><input id="email" type="email" autocomplete="username webauthn">
<label for="environment">Environment</label><input id="environment" value="test">
<label for="token">Your user token (to add a passkey to your account)</label><input id="token">
<button id="register" type="button">Add a passkey</button>
<button id="login" type="button">Log in with a passkey</button>
<pre id="out" aria-live="polite"></pre></body></html>
`;

export const PASSKEY_SCRIPT = `'use strict';
const out = document.getElementById('out');
const field = (id) => document.getElementById(id).value.trim();
const toBytes = (text) => Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));
const toText = (buffer) =>
  btoa(String.fromCharCode(...new Uint8Array(buffer))).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '');
async function api(path, body, token) {
  const headers = { 'content-type': 'application/json', 'x-service-env': field('environment') };
  if (token) headers.authorization = 'Bearer ' + token;
  const response = await fetch(path, { method: 'POST', headers, body: JSON.stringify(body) });
  const json = await response.json();
  if (!response.ok) throw new Error(json.code + ': ' + json.detail);
  return json;
}
document.getElementById('register').addEventListener('click', async () => {
  try {
    const token = field('token');
    const options = await api('/v1/auth/passkey/register/challenge', { email: field('email') }, token);
    const credential = await navigator.credentials.create({
      publicKey: {
        ...options,
        challenge: toBytes(options.challenge),
        user: { ...options.user, id: toBytes(options.user.id) },
        excludeCredentials: (options.excludeCredentials || []).map((c) => ({ ...c, id: toBytes(c.id) })),
      },
    });
    const result = await api('/v1/auth/passkey/register/verify', {
      id: credential.id,
      rawId: toText(credential.rawId),
      type: credential.type,
      response: {
        clientDataJSON: toText(credential.response.clientDataJSON),
        attestationObject: toText(credential.response.attestationObject),
        transports: credential.response.getTransports ? credential.response.getTransports() : [],
      },
    }, token);
    out.textContent = 'registered: ' + result.message;
  } catch (error) {
    out.textContent = 'error: ' + error.message;
  }
});
document.getElementById('login').addEventListener('click', async () => {
  try {
    const options = await api('/v1/auth/passkey/login/challenge', { email: field('email') });
    const credential = await navigator.credentials.get({
      publicKey: {
        ...options,
        challenge: toBytes(options.challenge),
        allowCredentials: options.allowCredentials.map((c) => ({ ...c, id: toBytes(c.id) })),
      },
    });
    const result = await api('/v1/auth/passkey/login/verify', {
      id: credential.id,
      rawId: toText(credential.rawId),
      type: credential.type,
      response: {
        clientDataJSON: toText(credential.response.clientDataJSON),
        authenticatorData: toText(credential.response.authenticatorData),
        signature: toText(credential.response.signature),
        ...(credential.response.userHandle ? { userHandle: toText(credential.response.userHandle) } : {}),
      },
    });
    out.textContent = 'logged in: ' + result.token;
  } catch (error) {
    out.textContent = 'error: ' + error.message;
  }
});
`;
