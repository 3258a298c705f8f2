import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { parseSunMessage } from '../../../src/standards/sun/index.ts';
import { PICC_ONLY, WITH_ENC_FILE_DATA } from './an12196-vectors.ts';

const P = PICC_ONLY.piccData;
const C = PICC_ONLY.cmac;

describe('parseSunMessage', () => {
  it('parses a whole URL', () => {
    assert.deepEqual(parseSunMessage(PICC_ONLY.url), { ok: true, piccData: P, cmac: C, macInput: '' });
  });

  it('parses a query string with or without "?" and with surrounding whitespace', () => {
    for (const input of [`picc_data=${P}&cmac=${C}`, `?picc_data=${P}&cmac=${C}`, `  ${PICC_ONLY.url}\n`]) {
      assert.deepEqual(parseSunMessage(input), { ok: true, piccData: P, cmac: C, macInput: '' }, input);
    }
  });

  it('accepts the e / c aliases, lower-case hex, other parameters and a fragment', () => {
    const result = parseSunMessage(
      `https://t.example/x?lang=en&e=${P.toLowerCase()}&c=${C.toLowerCase()}#top`,
    );
    assert.deepEqual(result, { ok: true, piccData: P, cmac: C, macInput: '' });
  });

  it('derives the AN12196 MAC input from the enc value up to the cmac value', () => {
    const result = parseSunMessage(WITH_ENC_FILE_DATA.url);
    assert.deepEqual(result, {
      ok: true,
      piccData: WITH_ENC_FILE_DATA.piccData,
      encFileData: WITH_ENC_FILE_DATA.encFileData,
      cmac: WITH_ENC_FILE_DATA.cmac,
      macInput: 'CEE9A53E3E463EF1F459635736738962&cmac=',
    });
  });

  it('keeps static text raw but restores upper-case mirrored hex in the MAC input', () => {
    const lower = WITH_ENC_FILE_DATA.url.toLowerCase();
    const result = parseSunMessage(lower);
    assert.equal(result.ok && result.macInput, 'CEE9A53E3E463EF1F459635736738962&cmac=');
    const extra = parseSunMessage(`e=${P}&enc=${WITH_ENC_FILE_DATA.encFileData}&v=1&c=${C}`);
    assert.equal(extra.ok && extra.macInput, `${WITH_ENC_FILE_DATA.encFileData}&v=1&c=`);
  });

  it('can start the MAC input at picc_data', () => {
    const result = parseSunMessage(`picc_data=${P.toLowerCase()}&cmac=${C}`, { macInputStart: 'picc_data' });
    assert.equal(result.ok && result.macInput, `${P}&cmac=`);
    const encAfterCmac = parseSunMessage(`picc_data=${P}&cmac=${C}&enc=${WITH_ENC_FILE_DATA.encFileData}`, {
      macInputStart: 'picc_data',
    });
    assert.equal(encAfterCmac.ok, false);
  });

  it('rejects malformed input with a message', () => {
    const cases = [
      '',
      42,
      'https://example.com/tap',
      `cmac=${C}`,
      `picc_data=${P}`,
      `picc_data=${P}&e=${P}&cmac=${C}`,
      `picc_data=${P.slice(1)}&cmac=${C}`,
      `picc_data=${P}&cmac=${C}0`,
      `picc_data=${P}&cmac=${C.slice(0, 14)}GG`,
      `picc_data=${P}&enc=ABCD&cmac=${C}`,
      `picc_data=${P}&cmac=${C}&enc=${WITH_ENC_FILE_DATA.encFileData}`,
    ];
    for (const input of cases) {
      const result = parseSunMessage(input);
      assert.equal(result.ok, false, String(input));
      assert.equal(result.ok ? '' : result.reason, 'malformed');
      assert.ok(result.ok ? false : result.message.length > 0);
    }
  });
  it('accepts the query percent-encoded once (passed on inside another URL), with the same MAC input', () => {
    assert.deepEqual(parseSunMessage(encodeURIComponent(`picc_data=${P}&cmac=${C}`)), {
      ok: true,
      piccData: P,
      cmac: C,
      macInput: '',
    });
    const enc = parseSunMessage(encodeURIComponent(WITH_ENC_FILE_DATA.url));
    assert.deepEqual(enc, parseSunMessage(WITH_ENC_FILE_DATA.url));
  });

  it('ignores a plain counter or sv beside the SUN; refuses them alone, naming the accepted forms', () => {
    const beside = parseSunMessage(`counter=00003D&picc_data=${P}&sv=1&cmac=${C}`);
    assert.deepEqual(beside, { ok: true, piccData: P, cmac: C, macInput: '' });
    for (const input of ['counter=00003D&sv=94EED9EE65337086', `ctr=00003D&cmac=${C}`]) {
      const alone = parseSunMessage(input);
      assert.equal(alone.ok, false, input);
      assert.match(alone.ok ? '' : alone.message, /picc_data=…&cmac=….*cannot be verified/, input);
    }
  });
});
