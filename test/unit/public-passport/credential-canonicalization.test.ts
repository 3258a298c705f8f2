import assert from 'node:assert/strict';
import jsonld from 'jsonld';
import { describe, test } from 'vitest';
import { credentialSubject } from '../../../src/passport/credentials/credential-subject.ts';
import type { PassportRecord, ProvenanceEvent } from '../../../src/passport/views/lookup.ts';
import {
  CREDENTIALS_V2_CONTEXT,
  documentLoaderFor,
  dppContextUrl,
} from '../../../src/standards/credentials/contexts.ts';
import { signEddsaRdfc2022, verifyEddsaRdfc2022 } from '../../../src/standards/credentials/data-integrity.ts';
import { ed25519FromSeed } from '../../../src/standards/credentials/ed25519.ts';

// A passport's credential must stay cheap to canonicalise (RDFC-1.0, what eddsa-rdfc-2022 signs) however many
// events its product collects. Blank nodes that look alike to RDFC-1.0 make it compare them by N-degree hashing,
// whose cost explodes with their number; rdf-canonize's default work limit then refuses the document ("Maximum
// deep iterations exceeded"), which answered format=vc with 500 from four provenance events on.

const BASE = 'https://dpp.example';
const documentLoader = documentLoaderFor(BASE);
const dids = { chainIds: { live: 8453, test: 31337 }, custodyMasterSecret: 'unit-test-custody-secret' };

const passport: PassportRecord = {
  id: 1,
  companyId: '00000000-0000-4000-8000-000000000001',
  companyName: 'Acme Apparel',
  environment: 'test',
  tokenId: '42',
  gtin: '00012345600012',
  chipUid: '04C1B2C3D4E501',
  status: 'ACTIVE',
  metadata: {
    name: 'Trail Jacket',
    custom_dpp_data: { material_composition: { Cotton: 80, Polyester: 20 } },
  },
  contractAddress: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
  transactionHash: `0x${'ab'.repeat(32)}`,
  mintBlock: 1,
  mintTimestamp: new Date('2026-01-01T00:00:00Z'),
  statusList: 1,
  statusListIndex: 7,
  revokedAt: null,
  revocationReason: null,
  verificationCount: 1,
  lastVerifiedAt: null,
};

/**
 * The worst case for canonicalisation: events that say the same thing (one action, one actor, one second, no
 * place, still being anchored), as a company logging a batch of identical events in one go produces.
 */
function lookAlikeEvents(count: number): ProvenanceEvent[] {
  return Array.from({ length: count }, (_, i) => ({
    id: 1000 + i,
    companyId: passport.companyId,
    action: 'SHIPPED',
    actor: null,
    locationName: null,
    latitude: null,
    longitude: null,
    timestamp: new Date('2026-02-01T12:00:00Z'),
    transactionHash: null,
  }));
}

function credentialWith(events: readonly ProvenanceEvent[]) {
  return {
    '@context': [CREDENTIALS_V2_CONTEXT, dppContextUrl(BASE)],
    id: 'urn:uuid:00000000-0000-8000-8000-000000000000',
    type: ['VerifiableCredential', 'DigitalProductPassport'],
    issuer: 'did:web:dpp.example:test',
    validFrom: '2026-02-01T12:00:00Z',
    credentialStatus: {
      id: `${BASE}/credentials/status/test/1#7`,
      type: 'BitstringStatusListEntry',
      statusPurpose: 'revocation',
      statusListIndex: '7',
      statusListCredential: `${BASE}/credentials/status/test/1`,
    },
    credentialSubject: credentialSubject(passport, events, BASE, dids),
  };
}

/** RDFC-1.0 as the signer runs it; `maxWorkFactor` 0 allows no N-degree hashing at all (1 is the default). */
function canonize(document: unknown, maxWorkFactor?: number): Promise<string> {
  return jsonld.canonize(document, {
    algorithm: 'RDFC-1.0',
    format: 'application/n-quads',
    documentLoader,
    safe: true,
    base: null,
    ...(maxWorkFactor === undefined ? {} : { canonizeOptions: { maxWorkFactor } }),
  });
}

describe('the passport credential stays cheap to canonicalise, however long the product lives', () => {
  for (const count of [0, 1, 4, 12, 50, 500]) {
    test(`${count} look-alike provenance events: canonical at the library's default work limit`, async () => {
      const nquads = await canonize(credentialWith(lookAlikeEvents(count)));
      assert.equal(nquads.match(/<urn:dpp-service:vocab:idpp:action> "SHIPPED"/g)?.length ?? 0, count);
    });
  }

  test('500 events need no N-degree hashing at all: every blank node is told apart by its own quads', async () => {
    await canonize(credentialWith(lookAlikeEvents(500)), 0);
  });

  test('every provenance entry has its own IRI, stable across versions: its Digital Link and event id', () => {
    const events = lookAlikeEvents(3);
    const ids = (credentialWith(events).credentialSubject.provenance as { id: string }[]).map((e) => e.id);
    assert.deepEqual(ids, [
      `${BASE}/test/01/00012345600012/21/42#event-1000`,
      `${BASE}/test/01/00012345600012/21/42#event-1001`,
      `${BASE}/test/01/00012345600012/21/42#event-1002`,
    ]);
    const later = credentialWith([...events, ...lookAlikeEvents(5).slice(3)]).credentialSubject
      .provenance as { id: string }[];
    assert.deepEqual(
      later.slice(0, 3).map((e) => e.id),
      ids,
    );
  });

  test('a credential with 500 provenance events is signed and verifies (eddsa-rdfc-2022)', async () => {
    const key = ed25519FromSeed(new Uint8Array(32).fill(7));
    const signed = await signEddsaRdfc2022(credentialWith(lookAlikeEvents(500)), {
      privateKey: key.privateKey,
      verificationMethod: `did:web:dpp.example:test#${key.publicKeyMultibase}`,
      created: new Date('2026-02-01T12:00:00Z'),
      documentLoader,
    });
    assert.equal(await verifyEddsaRdfc2022(signed, key.publicKey, documentLoader), true);
    const reordered = structuredClone(signed);
    const provenance = reordered.credentialSubject.provenance as unknown[];
    provenance.push(provenance.shift());
    assert.equal(
      await verifyEddsaRdfc2022(reordered, key.publicKey, documentLoader),
      false,
      'the order of events is signed (provenance is a list)',
    );
  });
});
