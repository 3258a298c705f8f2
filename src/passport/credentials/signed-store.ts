import type { EntityManager } from '@mikro-orm/postgresql';
import { proofTimestamp } from '../../standards/credentials/data-integrity.ts';
import { uuidFromHash } from '../../standards/credentials/issuer.ts';
import { etagOf } from '../views/etag.ts';

/**
 * The one store of a passport's signed credentials, whatever their format (`vc`; `untp` with its `vc-jwt` twin;
 * the UNTP per-audience variants). Signed forms live in PostgreSQL so that every API process answers the same
 * bytes for one passport version: the first process to sign a content hash stores its bytes, the others read
 * them back. A slot (a table row: per passport, or per passport and audience) holds one content hash's forms;
 * a new version's hash replaces them, a second signature of the same hash never does.
 */
export interface CredentialSlot<Forms> {
  /** Names the slot (table and key) in this process's map of signatures under way. */
  readonly name: string;
  /** The stored forms when the slot holds `hash`. */
  read(em: EntityManager, hash: string): Promise<Forms | undefined>;
  /** Stores the forms of `hash` unless the slot holds `hash` already. */
  write(em: EntityManager, hash: string, forms: Forms, signedAt: Date): Promise<void>;
}

/** What a new signature states beside the content: the id derived from its hash, and when it was made. */
export interface Signing {
  /** `urn:uuid:` of the content hash: every signature of one version has the same id. */
  id: string;
  /** `validFrom`: the signing second. */
  validFrom: string;
  /** The proof's creation time. */
  at: Date;
}

/** The slot's row as the caller read it already (with the passport, in one statement); null: none. */
export interface ReadAlready<Forms> {
  contentHash: string;
  forms: Forms;
}

/** Requests of this process for a hash being signed wait for that signature instead of signing again. */
const signing = new Map<string, Promise<unknown>>();

/**
 * The stored forms of `hash` in `slot`, else `sign`ed, stored and read back (so that when another process
 * stored the hash first, its bytes are the answer). `readAlready` spares the first read: the row was read with
 * the passport (undefined: read it here).
 */
export async function signedOnce<Forms>(
  em: EntityManager,
  slot: CredentialSlot<Forms>,
  hash: string,
  sign: (signing: Signing) => Promise<Forms>,
  readAlready?: ReadAlready<Forms> | null,
): Promise<Forms> {
  if (readAlready === undefined) {
    const stored = await slot.read(em, hash);
    if (stored !== undefined) return stored;
  } else if (readAlready?.contentHash === hash) {
    return readAlready.forms;
  }
  const flight = `${slot.name}:${hash}`;
  let pending = signing.get(flight) as Promise<Forms> | undefined;
  if (!pending) {
    pending = signAndStore(em, slot, hash, sign).finally(() => signing.delete(flight));
    signing.set(flight, pending);
  }
  return pending;
}

async function signAndStore<Forms>(
  em: EntityManager,
  slot: CredentialSlot<Forms>,
  hash: string,
  sign: (signing: Signing) => Promise<Forms>,
): Promise<Forms> {
  const at = new Date();
  const forms = await sign({ id: `urn:uuid:${uuidFromHash(hash)}`, validFrom: proofTimestamp(at), at });
  await slot.write(em, hash, forms, at);
  // Ours, the first process's (same hash), or — when a newer version replaced the row meanwhile — ours.
  return (await slot.read(em, hash)) ?? forms;
}

/**
 * format=vc: `passport_credentials`, one row per passport, with the stamp of the inputs the credential was built
 * from and its ETag (the resolver's fast path serves the row as it is while the stamp is current).
 */
export function passportCredentialSlot(passportId: number, inputsStamp: string): CredentialSlot<string> {
  return {
    name: `passport_credentials:${passportId}`,
    read: async (em, hash) => {
      const [row] = await em
        .getConnection()
        .execute<{ credential: string }[]>(
          'select credential from passport_credentials where passport_id = ? and content_hash = ?',
          [passportId, hash],
        );
      return row?.credential;
    },
    write: async (em, hash, credential, signedAt) => {
      await em
        .getConnection()
        .execute(STORE_PASSPORT_CREDENTIAL, [
          passportId,
          hash,
          credential,
          signedAt,
          inputsStamp,
          etagOf(credential),
        ]);
    },
  };
}

const STORE_PASSPORT_CREDENTIAL = `insert into passport_credentials (passport_id, content_hash, credential,
    signed_at, inputs_stamp, etag)
  values (?, ?, ?, ?, ?, ?)
  on conflict (passport_id) do update
    set content_hash = excluded.content_hash, credential = excluded.credential, signed_at = excluded.signed_at,
      inputs_stamp = excluded.inputs_stamp, etag = excluded.etag
    where passport_credentials.content_hash <> excluded.content_hash`;

/** Records that the stored credential of `hash` is current for new inputs (`inputsStamp`) it did not change. */
export async function restampPassportCredential(
  em: EntityManager,
  passportId: number,
  hash: string,
  inputsStamp: string,
  credential: string,
): Promise<void> {
  await em
    .getConnection()
    .execute(
      'update passport_credentials set inputs_stamp = ?, etag = ? where passport_id = ? and content_hash = ?',
      [inputsStamp, etagOf(credential), passportId, hash],
    );
}

/** A UNTP credential's two secured forms. */
export interface UntpForms {
  /** The credential with its Data Integrity proof, as JSON text. */
  dataIntegrity: string;
  /** The same credential secured with VC-JOSE: a compact JWS. */
  jwt: string;
}

/**
 * format=untp and vc-jwt (both forms in one row): `untp_credentials`, one row per passport; with an audience
 * (`accessRole`, passports with product-group data), `untp_variant_credentials`, one row per passport and audience.
 */
export function untpCredentialSlot(passportId: number, accessRole?: string): CredentialSlot<UntpForms> {
  const [table, key] =
    accessRole === undefined
      ? [UNTP_CREDENTIALS, [passportId]]
      : [UNTP_VARIANT_CREDENTIALS, [passportId, accessRole]];
  return {
    name: `${table.name}:${key.join(':')}`,
    read: async (em, hash) => {
      const [row] = await em
        .getConnection()
        .execute<{ data_integrity: string; jwt: string }[]>(table.read, [...key, hash]);
      return row ? { dataIntegrity: row.data_integrity, jwt: row.jwt } : undefined;
    },
    write: async (em, hash, forms, signedAt) => {
      await em.getConnection().execute(table.write, [...key, hash, forms.dataIntegrity, forms.jwt, signedAt]);
    },
  };
}

// Parameters: the key's columns, then the hash (read); the key, hash, data_integrity, jwt, signed_at (write).
const UNTP_CREDENTIALS = {
  name: 'untp_credentials',
  read: 'select data_integrity, jwt from untp_credentials where passport_id = ? and content_hash = ?',
  write: `insert into untp_credentials (passport_id, content_hash, data_integrity, jwt, signed_at)
    values (?, ?, ?, ?, ?)
    on conflict (passport_id) do update
      set content_hash = excluded.content_hash, data_integrity = excluded.data_integrity, jwt = excluded.jwt,
        signed_at = excluded.signed_at
      where untp_credentials.content_hash <> excluded.content_hash`,
};
const UNTP_VARIANT_CREDENTIALS = {
  name: 'untp_variant_credentials',
  read: `select data_integrity, jwt from untp_variant_credentials
    where passport_id = ? and access_role = ? and content_hash = ?`,
  write: `insert into untp_variant_credentials (passport_id, access_role, content_hash, data_integrity, jwt,
      signed_at)
    values (?, ?, ?, ?, ?, ?)
    on conflict (passport_id, access_role) do update
      set content_hash = excluded.content_hash, data_integrity = excluded.data_integrity, jwt = excluded.jwt,
        signed_at = excluded.signed_at
      where untp_variant_credentials.content_hash <> excluded.content_hash`,
};
