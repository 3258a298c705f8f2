import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { startTestApi, type TestApi } from '../support/api.ts';

describe("the service's bare address", () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi();
  });
  afterAll(async () => {
    await api?.close();
  });

  test('a browser is sent to the console, an API client gets the not-found problem', async () => {
    const browser = await api.call('GET', '/', {
      env: null,
      headers: { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' },
    });
    assert.equal(browser.status, 302);
    const location = new URL(browser.headers.get('location')!, api.baseUrl);
    assert.equal(location.pathname, '/console');
    const page = await api.call('GET', location.pathname, { env: null, headers: { accept: 'text/html' } });
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type')!, /^text\/html/);
    for (const accept of ['application/json', '*/*']) {
      const client = await api.call('GET', '/', { env: null, headers: { accept } });
      assert.equal(client.status, 404, accept);
      assert.match(client.headers.get('content-type')!, /^application\/problem\+json/);
    }
  });
});
