import { z } from 'zod';

/**
 * One registration (or update) as the EU DPP registry receives it: the fields Implementing Regulation (EU)
 * 2026/1778 names, one by one in docs/registry.md. The client sends what the passport and its company have;
 * the registry judges it (Art. 8(7)(a): it checks conformity on registration). The emulator
 * (scripts/dev/registry-emulator.ts) validates with {@link registrationPayloadSchema}.
 */
export interface RegistrationPayload {
  /** Our registration identity: one per product (its unique product identifier), across every regime. */
  registrationKey: string;
  uniqueProductIdentifier: string;
  digitalProductPassportId: string;
  granularity: 'model' | 'batch' | 'item';
  uniqueOperatorIdentifier: string | null;
  uniqueFacilityIdentifier: string | null;
  commodityCode: string | null;
  /** The Union acts the passport answers to (ESPR 2024/1781, batteries 2023/1542, …). */
  regimes: string[];
  dppStatus: 'active' | 'suspended' | 'archived';
  version: { number: number; sha256: string; recordedAt: string };
  backupCopyUrl: string | null;
  serviceProviderId: string;
  /** Art. 8(4): an item's batch and model passports, a batch's model passport. */
  linkedPassports: {
    granularity: 'model' | 'batch';
    uniqueProductIdentifier: string;
    registrationId: string | null;
  }[];
}

/** An EORI (Union Customs Code; Implementing Reg. 2015/2447 Art. 6): member-state code + up to 15 characters. */
export const EORI = /^[A-Z]{2}[0-9A-Z]{1,15}$/;

export const registrationPayloadSchema = z.object({
  registrationKey: z.uuid(),
  uniqueProductIdentifier: z.url(),
  digitalProductPassportId: z.string().regex(/^urn:uuid:[0-9a-f-]{36}$/),
  granularity: z.enum(['model', 'batch', 'item']),
  uniqueOperatorIdentifier: z
    .string({ error: 'the unique operator identifier (EORI) is required' })
    .regex(EORI, 'must be an EORI number'),
  uniqueFacilityIdentifier: z.string().min(1).max(200).nullable(),
  commodityCode: z
    .string()
    .regex(/^\d{4}(\d{2}){0,3}$/, 'must be an HS/CN/TARIC code of 4, 6, 8 or 10 digits')
    .nullable(),
  regimes: z.array(z.string().min(1)).min(1),
  dppStatus: z.enum(['active', 'suspended', 'archived']),
  version: z.object({
    number: z.number().int().min(1),
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
    recordedAt: z.iso.datetime({ offset: true }),
  }),
  backupCopyUrl: z.url({ error: 'the link to the backup copy (Art. 8(7)(e)) is required' }),
  serviceProviderId: z.string().min(1).max(200),
  linkedPassports: z.array(
    z.object({
      granularity: z.enum(['model', 'batch']),
      uniqueProductIdentifier: z.url(),
      registrationId: z.string().min(1).nullable(),
    }),
  ),
});

/** What the registry answered. A transient failure (network, 5xx, 408, 429) is thrown instead. */
export type RegistryOutcome =
  | { accepted: true; registrationId: string }
  | { accepted: false; status: number; reason: string; fields: { path: string; message: string }[] };
