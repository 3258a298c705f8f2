import type { KeyObject } from 'node:crypto';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { Environment } from '../../platform/config/config.ts';
import type { SecretBox } from '../../platform/secret-box.ts';
import { didDocument, issuerDid, type PublishedKey, verificationMethodId } from './did-web.ts';
import { ed25519FromSeed, newEd25519Seed } from './ed25519.ts';

/** The key an environment's credentials are signed with now. */
export interface SigningKey {
  environment: Environment;
  did: string;
  verificationMethod: string;
  publicKeyMultibase: string;
  privateKey: KeyObject;
}

export interface IssuerKeyringOptions {
  orm: MikroORM;
  publicBaseUrl: string;
  /** ISSUER_KEY_{LIVE,TEST}: a configured Ed25519 seed per environment (production); else generated. */
  configured: Record<Environment, Buffer | undefined>;
  /** Seals generated private keys at rest (DATA_ENCRYPTION_KEY). */
  secretBox: SecretBox;
  /** Told when a key is generated (the service warns about a generated live key). */
  onGenerated?: (environment: Environment, publicKeyMultibase: string) => void;
}

interface KeyRow {
  id: number;
  public_key_multibase: string;
  sealed_private_key: Buffer | null;
  source: 'configured' | 'generated';
}

const ACTIVE_KEY = `select id, public_key_multibase, sealed_private_key, source from issuer_keys
  where environment = ? and retired_at is null`;

function sealContext(environment: Environment, publicKeyMultibase: string): string {
  return `issuer-key:${environment}:${publicKeyMultibase}`;
}

/**
 * The issuer's Ed25519 keys per environment. A configured key (ISSUER_KEY_*) is the signing key; without one a
 * key is generated once and kept in the database, sealed with DATA_ENCRYPTION_KEY, so every API process signs
 * with the same key across restarts. Every key that ever signed stays recorded (public part) and published in
 * the DID document, retired or not: configuring a new key retires the previous one without invalidating the
 * credentials it signed.
 */
export class IssuerKeyring {
  readonly #options: IssuerKeyringOptions;
  readonly #current = new Map<Environment, Promise<SigningKey>>();

  constructor(options: IssuerKeyringOptions) {
    this.#options = options;
  }

  did(environment: Environment): string {
    return issuerDid(this.#options.publicBaseUrl, environment);
  }

  /** The current signing key (settled once per process; a failed attempt is retried on the next call). */
  signingKey(environment: Environment): Promise<SigningKey> {
    let current = this.#current.get(environment);
    if (!current) {
      current = this.#ensureCurrent(environment);
      current.catch(() => this.#current.delete(environment));
      this.#current.set(environment, current);
    }
    return current;
  }

  /** The keys the environment's DID document publishes (the current one settled first). */
  async publishedKeys(environment: Environment): Promise<PublishedKey[]> {
    await this.signingKey(environment);
    const rows = await this.#options.orm.em
      .fork()
      .getConnection()
      .execute<{ public_key_multibase: string; retired: boolean }[]>(
        `select public_key_multibase, retired_at is not null as retired from issuer_keys
         where environment = ? order by created_at desc, id desc`,
        [environment],
      );
    return rows.map((row) => ({ publicKeyMultibase: row.public_key_multibase, retired: row.retired }));
  }

  async didDocument(environment: Environment): Promise<Record<string, unknown>> {
    return didDocument(this.did(environment), await this.publishedKeys(environment));
  }

  async #ensureCurrent(environment: Environment): Promise<SigningKey> {
    const seed = await this.#options.orm.em.fork().transactional(async (tx) => {
      // One process at a time decides the environment's key (two API processes starting together).
      await tx.execute('select pg_advisory_xact_lock(hashtext(?))', [`issuer_keys:${environment}`]);
      const [active] = await tx.execute<KeyRow[]>(ACTIVE_KEY, [environment]);
      const configured = this.#options.configured[environment];
      if (configured) return this.#activateConfigured(tx, environment, configured, active);
      if (active?.sealed_private_key) {
        return this.#options.secretBox.open(
          Buffer.from(active.sealed_private_key),
          sealContext(environment, active.public_key_multibase),
        );
      }
      if (active) await retire(tx, active.id); // a configured key was removed from the configuration
      return this.#generate(tx, environment);
    });
    const pair = ed25519FromSeed(seed);
    const did = this.did(environment);
    return {
      environment,
      did,
      verificationMethod: verificationMethodId(did, pair.publicKeyMultibase),
      publicKeyMultibase: pair.publicKeyMultibase,
      privateKey: pair.privateKey,
    };
  }

  async #activateConfigured(
    tx: EntityManager,
    environment: Environment,
    seed: Buffer,
    active: KeyRow | undefined,
  ): Promise<Buffer> {
    const { publicKeyMultibase } = ed25519FromSeed(seed);
    if (active?.public_key_multibase === publicKeyMultibase) return seed;
    if (active) await retire(tx, active.id);
    const rows = await tx.execute<{ id: number }[]>(
      `insert into issuer_keys (environment, public_key_multibase, sealed_private_key, source)
       values (?, ?, null, 'configured')
       on conflict (public_key_multibase) do update set retired_at = null
         where issuer_keys.environment = excluded.environment
       returning id`,
      [environment, publicKeyMultibase],
    );
    if (rows.length === 0) {
      throw new Error(
        `ISSUER_KEY_${environment.toUpperCase()} is already the issuer key of another environment`,
      );
    }
    return seed;
  }

  async #generate(tx: EntityManager, environment: Environment): Promise<Buffer> {
    const seed = newEd25519Seed();
    const { publicKeyMultibase } = ed25519FromSeed(seed);
    const sealed = this.#options.secretBox.seal(seed, sealContext(environment, publicKeyMultibase));
    await tx.execute(
      `insert into issuer_keys (environment, public_key_multibase, sealed_private_key, source)
       values (?, ?, ?, 'generated')`,
      [environment, publicKeyMultibase, sealed],
    );
    this.#options.onGenerated?.(environment, publicKeyMultibase);
    return seed;
  }
}

async function retire(tx: EntityManager, id: number): Promise<void> {
  await tx.execute('update issuer_keys set retired_at = now() where id = ?', [id]);
}
