import type { EntityManager } from '@mikro-orm/postgresql';
import { requireActivePlan } from '../../accounts/billing/plan-guard.ts';
import { readCompanySettings } from '../../accounts/settings/company-settings.ts';
import type { WorkflowGateway } from '../../adapters/temporal/start.ts';
import { chipKeysNotConfigured, chipKeysStatus } from '../../chips/chip-keys.ts';
import type { TenantScope } from '../../platform/db/tenant-scope.ts';
import { DomainError } from '../../platform/errors.ts';
import type { MintInput } from '../../processes/mint.ts';
import { workflowIds } from '../../processes/workflow-ids.ts';
import { parseSunMessage, sunPayloadOf } from '../../standards/sun/index.ts';
import { findChipToMint } from './mint-candidate.ts';
import { CHIP_ALREADY_REGISTERED } from './mint-failures.ts';
import {
  ESPR_CONFORMITY_PREFIX,
  type MintShapeA,
  type MintShapeB,
  productFromShapeA,
  productFromShapeB,
  shapeBConformityUrl,
} from './mint-request.ts';
import { type MintOutcome, startMint } from './start-mint.ts';

export interface RequestMintDeps {
  /** Bound to the caller's company and environment. */
  em: EntityManager;
  workflows: WorkflowGateway | undefined;
  /** How long the request waits for the mint before answering with its status (MINT_WAIT_MS). */
  waitMs: number;
}

/**
 * A shape-B mint without a declaration of conformity, its own or the company default: the caller answers it
 * with the ESPR text naming where the link could come from.
 */
export class ConformityMissing extends DomainError {
  constructor() {
    super('invalid', 'conformity_required', ESPR_CONFORMITY_PREFIX);
  }
}

function chipNotEnrolled(chipUid: string): DomainError {
  return new DomainError(
    'not_found',
    'chip_not_found',
    `Chip ${chipUid} is not enrolled in this environment; mint it with a tap (shape A nfcData) to enrol it on the way, or POST /v1/dpp/enroll first.`,
  );
}

/**
 * POST /v1/dpp/mint, either request shape (A: a SUN tap, enrolling the chip if new; B: ERP fields for an
 * enrolled chip). Everything a mint can be refused for is checked before the workflow starts, in this order:
 * the declaration of conformity (shape B: its own, else the company default), the plan, the chip (ours, no
 * passport yet; shape B enrolled; shape A new only with SUN keys to check its tap) and the tap's form.
 */
export async function requestMint(
  deps: RequestMintDeps,
  input: { scope: TenantScope; request: MintShapeA | MintShapeB },
): Promise<MintOutcome> {
  const { em, workflows, waitMs } = deps;
  const { scope, request } = input;
  let conformityUrl: string | undefined;
  if (!('nfcData' in request)) {
    conformityUrl =
      shapeBConformityUrl(request) ??
      (await readCompanySettings(em, scope)).defaultConformityUrl ??
      undefined;
    if (!conformityUrl) throw new ConformityMissing();
  }
  await requireActivePlan(em, scope);
  const chip = await findChipToMint(em, scope, request.chipUid);
  if (chip.hasPassport) throw new DomainError('conflict', 'chip_already_registered', CHIP_ALREADY_REGISTERED);
  if (!chip.enrolled) {
    // The spec's `(none)` → mint: a tap proves the chip, and the workflow enrols it with the mint.
    // Without a tap (shape B) there is nothing to prove it with.
    if (!('nfcData' in request)) throw chipNotEnrolled(chip.chipUid);
    if ((await chipKeysStatus(em, scope)).source === 'missing') throw chipKeysNotConfigured();
  }
  const workflowId = workflowIds.mint(scope.environment, chip.chipUid);
  let mint: MintInput;
  if ('nfcData' in request) {
    const parsed = parseSunMessage(request.nfcData);
    if (!parsed.ok) throw new DomainError('invalid', 'malformed_sun_payload', parsed.message);
    mint = {
      scope,
      chipUid: chip.chipUid,
      product: productFromShapeA(request),
      sun: sunPayloadOf(parsed),
      nfc: { cmac: parsed.cmac, urlPath: request.nfcData, piccData: parsed.piccData },
      reference: workflowId,
      ...(chip.enrolled ? {} : { enrollIfNew: { productId: request.productId ?? null } }),
    };
  } else {
    mint = {
      scope,
      chipUid: chip.chipUid,
      product: productFromShapeB(request, conformityUrl!),
      sun: null,
      nfc: { cmac: null, urlPath: null, piccData: null },
      reference: workflowId,
    };
  }
  const gtin = mint.product.gtin;
  return startMint(workflows, mint, {
    summary: `Mint passport for chip ${chip.chipUid}${gtin ? ` (GTIN ${gtin})` : ''}`,
    waitMs,
    completed: 'refuse',
  });
}
