import type { EntityManager } from '@mikro-orm/postgresql';
import type { WorkflowHandle } from '@temporalio/client';
import type { StripeGateway } from '../../adapters/payments/stripe-gateway.ts';
import { requireWorkflows, startOrJoin, type WorkflowGateway } from '../../adapters/temporal/start.ts';
import type { Config } from '../../platform/config/config.ts';
import type { TenantScope } from '../../platform/db/tenant-scope.ts';
import { DomainError } from '../../platform/errors.ts';
import type { SecretBox } from '../../platform/secret-box.ts';
import {
  RESALE_PROGRESS_QUERY,
  RESALE_WORKFLOW,
  type ResaleProgress,
  type ResaleWorkflow,
} from '../../processes/resale.ts';
import type { ResaleTerms } from '../../processes/resale-terms.ts';
import { workflowIds } from '../../processes/workflow-ids.ts';
import {
  brandReleaseTerms,
  ownedPassport,
  ownerReleaseTerms,
  type ReleaseRequest,
} from './release-request.ts';
import { resaleFailureToDomainError } from './resale-failures.ts';
import { insertResale, updateResale } from './resale-records.ts';
import { requireTapMadeNow } from './tap-made-now.ts';

export interface ReleasePassportDeps {
  /** Bound to the caller's company and environment. */
  em: EntityManager;
  /** Unscoped: a consumer's passport is its brand's row. */
  unscopedEm: () => EntityManager;
  config: Pick<Config, 'publicBaseUrl' | 'secrets' | 'identity' | 'mint'>;
  payments: Pick<StripeGateway, 'forEnvironment'>;
  workflows: WorkflowGateway | undefined;
  /** Opens the SUN keys of the owner's tap. */
  box: SecretBox;
}

/** Who releases: the brand (its custodial wallet holds the token) or a consumer (their invisible wallet). */
export type Releaser = { kind: 'company' } | { kind: 'user'; userId: number; email: string };

export interface ReleaseResult {
  resaleId: string;
  tokenId: string;
  /** The resale's progress once its checkout is open; undefined while it is still being set up. */
  opened: ResaleProgress | undefined;
}

/**
 * POST /v1/dpp/release: puts a passport up for resale to one buyer. The terms are checked (the passport is
 * the seller's and not recycled), payments must be configured for the environment, the resale's row is
 * written (one open resale per token), and workflow resale:{env}:{tokenId} starts: one resale of a token runs
 * at a time, though a token is resold again and again. Waits up to MINT_WAIT_MS for the checkout to open;
 * a release that failed to set up is its domain error.
 */
export async function releasePassport(
  deps: ReleasePassportDeps,
  input: { scope: TenantScope; releaser: Releaser; request: ReleaseRequest },
): Promise<ReleaseResult> {
  const { em, config } = deps;
  const { scope, releaser, request } = input;
  const terms =
    releaser.kind === 'user'
      ? await ownerRelease(deps, scope, releaser, request)
      : await brandReleaseTerms(em, scope, request, {
          custodyMasterSecret: config.secrets.custodyMasterSecret,
          walletMasterSecret: config.identity.walletMasterSecret,
          publicBaseUrl: config.publicBaseUrl,
        });
  deps.payments.forEnvironment(scope.environment);
  const gateway = requireWorkflows(deps.workflows);
  await insertResale(em, terms);
  const handle = await startResale(gateway, terms).catch(async (error) => {
    await updateResale(em, terms.resaleId, { status: 'FAILED' });
    throw error;
  });
  return {
    resaleId: terms.resaleId,
    tokenId: terms.tokenId,
    opened: await checkoutWithin(handle, config.mint.waitMs),
  };
}

/**
 * An owner's release: the passport is theirs, and they hold it now — a tap of its chip made after their release
 * challenge (requireTapMadeNow, the claim's rule), checked after payments are known configured so a tap is not
 * spent on a release that cannot open.
 */
async function ownerRelease(
  deps: ReleasePassportDeps,
  scope: TenantScope,
  owner: { userId: number; email: string },
  request: ReleaseRequest,
): Promise<ResaleTerms> {
  const { config } = deps;
  const unscoped = deps.unscopedEm();
  const walletMasterSecret = config.identity.walletMasterSecret;
  const passport = await ownedPassport(
    unscoped,
    scope.environment,
    owner.email,
    request.tokenId,
    walletMasterSecret,
  );
  const terms = ownerReleaseTerms(passport, scope.environment, owner, request, {
    walletMasterSecret,
    publicBaseUrl: config.publicBaseUrl,
  });
  deps.payments.forEnvironment(scope.environment);
  if (!request.challengeId || !request.nfcData || !passport.chip_uid) {
    throw new DomainError(
      'invalid',
      'tap_required',
      'An owner releases with a tap made now: POST /v1/dpp/release/challenge, then tap the tag and send its ' +
        'URL as nfcData with the challengeId.',
    );
  }
  await requireTapMadeNow(unscoped, deps.box, {
    purpose: 'release',
    environment: scope.environment,
    tokenId: request.tokenId,
    email: owner.email,
    challengeId: request.challengeId,
    nfcData: request.nfcData,
    chip: { companyId: passport.company_id, chipUid: passport.chip_uid },
    reference: `release:${terms.resaleId}`,
  });
  return terms;
}

async function startResale(
  gateway: WorkflowGateway,
  terms: ResaleTerms,
): Promise<WorkflowHandle<ResaleWorkflow>> {
  const environment = terms.scope.environment;
  const { handle, alreadyRunning } = await startOrJoin<ResaleWorkflow>(gateway, RESALE_WORKFLOW, {
    workflowId: workflowIds.resale(environment, terms.tokenId),
    environment,
    args: [terms],
    // A token is resold again and again over its life; only one resale of it runs at a time.
    policy: 'exclusive',
    summary: `Resale of passport ${terms.tokenId} to ${terms.buyerWallet}`,
    searchAttributes: { environment, company: terms.scope.companyId, tokenId: terms.tokenId },
  });
  if (alreadyRunning) {
    throw new DomainError('conflict', 'resale_in_progress', `Passport ${terms.tokenId} is already for sale.`);
  }
  return handle;
}

/**
 * The progress once the checkout is open, or undefined if it is not within `ms`. A release that failed to set
 * up answers the failure as its domain error.
 */
async function checkoutWithin(
  handle: WorkflowHandle<ResaleWorkflow>,
  ms: number,
): Promise<ResaleProgress | undefined> {
  const deadline = Date.now() + ms;
  for (;;) {
    const progress = await handle.query<ResaleProgress>(RESALE_PROGRESS_QUERY).catch(() => undefined);
    if (progress?.checkoutUrl) return progress;
    if (progress?.state === 'FAILED' || (await handle.describe()).status.name !== 'RUNNING') {
      try {
        await handle.result();
      } catch (error) {
        throw resaleFailureToDomainError(error) ?? error;
      }
    }
    if (Date.now() >= deadline) return undefined;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
