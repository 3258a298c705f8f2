import { z } from 'zod';
import {
  type AccountOwner,
  complianceStatus,
  existingAccountId,
} from '../../../src/accounts/compliance/connect-accounts.ts';
import {
  DocumentTooLarge,
  MAX_DOCUMENT_BODY_BYTES,
  MAX_DOCUMENT_BYTES,
  uploadDocument,
} from '../../../src/accounts/compliance/documents.ts';
import {
  kybSubmission,
  kycSubmission,
  submitKyb,
  submitKyc,
} from '../../../src/accounts/compliance/submissions.ts';
import type { AppContext } from '../../context.ts';
import { requireRight } from '../../middleware/require-right.ts';
import { Problem } from '../../problem.ts';
import { defineRoute, type RouteSpec } from '../../route.ts';
import type { RouteDeps } from '../deps.ts';

const statusSchema = z.object({
  success: z.literal(true),
  status: z.string().describe('not_started, pending, verified or restricted.'),
  verified: z.boolean(),
  requirements: z.array(z.string()).describe('Outstanding requirements as Stripe names them.'),
  connectId: z
    .string()
    .nullable()
    .describe(
      'The Stripe Connect account; null before the first submission: an extension, the spec shows a string ' +
        '(docs/api-conventions.md).',
    ),
});
const submitted = z.object({ success: z.literal(true), message: z.string(), connectId: z.string() });
const uploadBody = z
  .object({
    documentType: z
      .enum(['identity_document', 'registry_extract', 'proof_of_address'])
      .describe('An ID for a person; a registry extract or proof of address for a company requirement.'),
    contentBase64: z
      .string()
      .min(1)
      .describe(`PDF, JPEG or PNG, at most ${MAX_DOCUMENT_BYTES} bytes decoded.`),
  })
  .strict();

type Kind = 'kyb' | 'kyc';

/** KYB (a company, by its API key) and KYC (a person, by their user token): Stripe Connect accounts. */
export function complianceRoutes(deps: RouteDeps): RouteSpec[] {
  const ownerOf = (ctx: AppContext, kind: Kind): AccountOwner => {
    const principal = ctx.state.principal!;
    return kind === 'kyb'
      ? { kind: 'company', id: principal.companyId }
      : { kind: 'user', id: String((principal as { userId: number }).userId) };
  };
  const routes = (kind: Kind): RouteSpec[] => {
    const who =
      kind === 'kyb' ? 'company (business verification)' : 'individual seller (identity verification)';
    // KYB: the company's API key, or its people by role (owners submit, everyone reads); KYC: the person.
    const auth = kind === 'kyb' ? 'apiKeyOrUser' : 'user';
    const companyRight = async (ctx: AppContext, right: 'read' | 'manageCompany', action: string) => {
      if (kind === 'kyb') await requireRight(ctx, right, action);
    };
    const ownersOnly = (what: string): Record<number, { description: string }> =>
      kind === 'kyb' ? { 403: { description: `role_forbidden: only owners ${what} (people).` } } : {};
    return [
      defineRoute({
        method: 'get',
        path: `/v1/${kind}/status`,
        operationId: `${kind}Status`,
        summary: `Verification of the ${who}, as Stripe’s account.updated webhooks last described it.`,
        tags: ['compliance'],
        auth,
        responses: { 200: { description: 'The status.', schema: statusSchema } },
        handler: async (ctx: AppContext) => {
          await companyRight(ctx, 'read', 'see the business verification');
          const status = await complianceStatus(
            deps.orm.em.fork(),
            ownerOf(ctx, kind),
            ctx.state.environment!,
          );
          ctx.body = { success: true, ...status };
        },
      }),
      defineRoute({
        method: 'post',
        path: `/v1/${kind}/submit`,
        operationId: `${kind}Submit`,
        summary:
          kind === 'kyb'
            ? 'Create (or update) the company’s Stripe Connect account: company, tax id, representative, terms.'
            : 'Create (or update) the seller’s Stripe Connect account: person, birthdate, address, payout IBAN.',
        description:
          'Personal data goes to Stripe and is not stored by us, returned or logged. Verification then runs at ' +
          'Stripe; GET …/status follows it.',
        tags: ['compliance'],
        auth,
        body: (kind === 'kyb' ? kybSubmission : kycSubmission) as z.ZodType<unknown>,
        responses: {
          200: { description: 'Submitted.', schema: submitted },
          ...ownersOnly('submit'),
        },
        handler: async (ctx: AppContext, { body }) => {
          await companyRight(ctx, 'manageCompany', 'submit the business verification');
          const environment = ctx.state.environment!;
          const { stripe } = deps.payments.forEnvironment(environment);
          const owner = ownerOf(ctx, kind);
          const connectId =
            kind === 'kyb'
              ? await submitKyb(deps.orm.em.fork(), stripe, owner, environment, body as never, new Date())
              : await submitKyc(deps.orm.em.fork(), stripe, owner, environment, body as never, new Date());
          ctx.body = {
            success: true,
            message: 'Submitted to Stripe for verification; follow it with the status endpoint.',
            connectId,
          };
        },
      }),
      defineRoute({
        method: 'post',
        path: `/v1/${kind}/upload-document`,
        operationId: `${kind}UploadDocument`,
        summary: 'Upload a base64 PDF, JPEG or PNG to Stripe for verification.',
        description:
          `At most ${MAX_DOCUMENT_BYTES} bytes decoded (413 document_too_large); the type is judged by the ` +
          'content, not a name or a claimed type (415 unsupported_document_type). The document is not stored by us.',
        tags: ['compliance'],
        auth,
        body: uploadBody,
        bodyLimitBytes: MAX_DOCUMENT_BODY_BYTES,
        responses: {
          201: {
            description: 'Uploaded: a Stripe File.',
            schema: z.object({ success: z.literal(true), message: z.string(), fileId: z.string() }),
          },
          409: { description: 'no_connect_account: submit first (POST …/submit).' },
          ...ownersOnly('upload'),
          415: { description: 'unsupported_document_type: not a PDF, JPEG or PNG by content.' },
        },
        handler: async (ctx: AppContext, { body }) => {
          await companyRight(ctx, 'manageCompany', 'upload verification documents');
          const environment = ctx.state.environment!;
          const accountId = await existingAccountId(deps.orm.em.fork(), ownerOf(ctx, kind), environment);
          if (!accountId) {
            throw new Problem(409, 'no_connect_account', 'Submit your details first (POST …/submit).');
          }
          const { stripe } = deps.payments.forEnvironment(environment);
          try {
            const file = await uploadDocument(stripe, {
              contentBase64: body.contentBase64,
              purpose:
                body.documentType === 'identity_document' ? 'identity_document' : 'account_requirement',
              accountId,
            });
            ctx.status = 201;
            ctx.body = {
              success: true,
              message: `Uploaded (${file.type}, ${file.bytes} bytes).`,
              fileId: file.fileId,
            };
          } catch (error) {
            if (error instanceof DocumentTooLarge) {
              throw new Problem(
                413,
                'document_too_large',
                `A document may have at most ${MAX_DOCUMENT_BYTES} bytes.`,
              );
            }
            throw error;
          }
        },
      }),
    ];
  };
  return [...routes('kyb'), ...routes('kyc')];
}
