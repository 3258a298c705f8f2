import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll } from 'vitest';
import { waitFor } from '../journeys/client.ts';
import { standard } from './support/clause.ts';
import { api, type ConformancePassport, conformancePassport } from './support/passport.ts';
import { npmVersion } from './support/tools.ts';

interface Received {
  body: string;
  headers: IncomingHttpHeaders;
}

/** A subscriber's receiver: keeps every POST as it arrived (raw bytes), answers 204. */
async function startReceiver() {
  const received: Received[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ body: Buffer.concat(chunks).toString('utf8'), headers: request.headers });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const standardHeaders = (headers: IncomingHttpHeaders) => ({
  'webhook-id': String(headers['webhook-id']),
  'webhook-timestamp': String(headers['webhook-timestamp']),
  'webhook-signature': String(headers['webhook-signature']),
});

const VERSION = '1.1.1';

standard(
  {
    name: 'Standard Webhooks 1.0.0',
    checkedWith: `standardwebhooks ${VERSION} (npm)`,
    reference: 'https://github.com/standard-webhooks/standard-webhooks/blob/main/spec/standard-webhooks.md',
  },
  (clause) => {
    let receiver: Awaited<ReturnType<typeof startReceiver>>;
    let passport: ConformancePassport;
    let endpointId: string;
    let secret: string;
    /** A real event's delivery: the passport shipped (asset.shipped), sent by the service's dispatcher. */
    let shipped: Received;

    /** The first delivery whose body says `eventType` and satisfies `which`. */
    const delivery = (eventType: string, which: (body: { eventId: string }) => boolean = () => true) =>
      waitFor(
        `a delivery of ${eventType}`,
        async () =>
          receiver.received.find((r) => {
            const body = JSON.parse(r.body);
            return body.eventType === eventType && which(body);
          }),
        (found) => found !== undefined,
        30,
      ) as Promise<Received>;

    beforeAll(async () => {
      assert.equal(npmVersion('standardwebhooks'), VERSION, 'the validator installed is the one named');
      receiver = await startReceiver();
      passport = await conformancePassport();
      const created = await api('POST', '/v1/webhooks/endpoints', {
        url: receiver.url,
        description: 'conformance: Standard Webhooks',
        eventTypes: ['asset.shipped'],
      });
      assert.equal(created.status, 201, created.text);
      endpointId = created.body.endpoint.id;
      secret = created.body.secret;
      const logged = await api('POST', '/v1/iaas/log-event', {
        tokenId: passport.tokenId,
        action: 'SHIPPED',
        locationName: 'Port of Leixões',
        latitude: 41.1853,
        longitude: -8.7024,
        metadata: { leg: 'conformance' },
      });
      assert.ok(logged.status >= 200 && logged.status < 300, logged.text);
      shipped = await delivery('asset.shipped');
    });

    afterAll(async () => {
      if (endpointId) await api('DELETE', `/v1/webhooks/endpoints/${endpointId}`);
      await receiver?.close();
    });

    clause(
      'webhook-metadata',
      'a delivery carries webhook-id, webhook-timestamp and webhook-signature',
      () => {
        const headers = standardHeaders(shipped.headers);
        const body = JSON.parse(shipped.body);
        assert.equal(
          headers['webhook-id'],
          body.eventId,
          'webhook-id is the event id (the same on every attempt)',
        );
        assert.match(headers['webhook-timestamp'], /^\d+$/, 'integer Unix seconds');
        assert.ok(
          Math.abs(Number(headers['webhook-timestamp']) - Date.now() / 1000) < 300,
          'the timestamp is the attempt time',
        );
        assert.match(headers['webhook-signature'], /^(v1,[A-Za-z0-9+/]+=*)( v1,[A-Za-z0-9+/]+=*)*$/);
        assert.equal(shipped.headers['content-type'], 'application/json');
      },
    );

    clause('secret-format', "the endpoint's secret is whsec_ + base64 of 24–64 random bytes", () => {
      assert.match(secret, /^whsec_[A-Za-z0-9+/]+=*$/);
      const bytes = Buffer.from(secret.slice('whsec_'.length), 'base64').length;
      assert.ok(bytes >= 24 && bytes <= 64, `${bytes} bytes`);
      assert.doesNotThrow(() => new Webhook(secret));
    });

    clause('symmetric-signature', "a real event's delivery verifies with the endpoint's secret", () => {
      const payload = new Webhook(secret).verify(shipped.body, standardHeaders(shipped.headers)) as {
        eventType: string;
      };
      assert.equal(payload.eventType, 'asset.shipped');
    });

    clause('signed-content', 'the signature covers the id, the timestamp and every byte of the body', () => {
      const verifier = new Webhook(secret);
      const headers = standardHeaders(shipped.headers);
      const changedBody = shipped.body.replace('Leix', 'Luix');
      assert.notEqual(changedBody, shipped.body);
      assert.throws(() => verifier.verify(changedBody, headers), /signature/i);
      assert.throws(
        () => verifier.verify(shipped.body, { ...headers, 'webhook-id': 'evt_other' }),
        /signature/i,
      );
      assert.throws(
        () =>
          verifier.verify(shipped.body, {
            ...headers,
            'webhook-timestamp': String(Number(headers['webhook-timestamp']) - 1),
          }),
        /signature/i,
      );
    });

    clause(
      'secret-rotation',
      'during a rotation overlap a delivery carries one signature per secret, each verifies',
      async () => {
        const rotated = await api('POST', `/v1/webhooks/endpoints/${endpointId}/rotate-secret`, {
          overlapSeconds: 3600,
        });
        assert.equal(rotated.status, 200, rotated.text);
        const newSecret: string = rotated.body.secret;
        assert.notEqual(newSecret, secret);
        const sent = await api('POST', `/v1/webhooks/endpoints/${endpointId}/test`);
        assert.equal(sent.status, 202, sent.text);
        const test = await delivery('webhook.test', (body) => body.eventId === sent.body.eventId);
        const headers = standardHeaders(test.headers);
        assert.equal(headers['webhook-signature'].split(' ').length, 2, headers['webhook-signature']);
        for (const key of [newSecret, secret]) new Webhook(key).verify(test.body, headers);
        const stranger = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
        assert.throws(() => new Webhook(stranger).verify(test.body, headers), /signature/i);
      },
    );

    clause.leftOut(
      'payload-structure',
      'the body is {type, timestamp, data}',
      'a recommendation; the interface spec fixes the body as {eventId, eventType, timestamp, data} (eventType is the type)',
    );
  },
);
