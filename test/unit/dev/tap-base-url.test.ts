import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'vitest';
import { noteRunningService, tapBaseUrl } from '../../../scripts/dev/tap.ts';
import { scratchDir } from '../../support/scratch-dir.ts';

/** `npm run cli -- tap … --gtin --serial` beside `PORT=4123 npm start` prints the running service's address. */
describe('the tap URL names the running service', () => {
  const configured = 'http://localhost:3000';
  const noteFile = async () => join(await scratchDir('tap-'), 'running-service.json');

  test('a running npm start on another port is what the tap opens; stopped, the default again', async () => {
    const file = await noteFile();
    assert.equal(await tapBaseUrl({}, configured, file), configured, 'nothing running');
    const forget = await noteRunningService('http://localhost:4123', file);
    assert.equal(await tapBaseUrl({}, configured, file), 'http://localhost:4123');
    forget();
    assert.equal(await tapBaseUrl({}, configured, file), configured);
  });

  test('PORT or PUBLIC_BASE_URL given to the CLI wins; a note left by a dead process is ignored', async () => {
    const file = await noteFile();
    await noteRunningService('http://localhost:4123', file);
    assert.equal(await tapBaseUrl({ PORT: '5000' }, 'http://localhost:5000', file), 'http://localhost:5000');
    assert.equal(
      await tapBaseUrl({ PUBLIC_BASE_URL: 'https://dpp.example' }, 'https://dpp.example', file),
      'https://dpp.example',
    );
    await writeFile(file, JSON.stringify({ baseUrl: 'http://localhost:4999', pid: 2 ** 22 + 1 }));
    assert.equal(await tapBaseUrl({}, configured, file), configured, 'a crashed start does not mislead');
  });
});
