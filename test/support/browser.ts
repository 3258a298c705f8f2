import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';

/** Debian's Chromium (test/support/global-setup.ts installs it where it can), or CHROMIUM_PATH. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Screenshots and other artefacts a failing browser test leaves for a human (gitignored). */
export const ARTIFACTS_DIR = new URL('../../test-artifacts/', import.meta.url);

/** Headless Chromium as this machine allows it: no sandbox as root, no calls home (the network is closed). */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `No Chromium at ${CHROMIUM_PATH}: install Debian's package (apt-get install -y chromium) or set CHROMIUM_PATH.`,
    );
  }
  await mkdir(ARTIFACTS_DIR, { recursive: true });
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

/**
 * A virtual platform authenticator (DevTools WebAuthn) for the page: holds resident keys, verifies the user and
 * answers every prompt by itself, as a phone's or laptop's built-in passkey store does.
 */
export async function addVirtualAuthenticator(
  context: BrowserContext,
  page: Page,
): Promise<{ remove: () => Promise<void> }> {
  const devtools = await context.newCDPSession(page);
  await devtools.send('WebAuthn.enable');
  const { authenticatorId } = await devtools.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  // Removing it loses its passkeys, as losing the device does.
  return {
    remove: async () => {
      await devtools.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId });
    },
  };
}
