import { z } from 'zod';
import {
  type CompanySettings,
  DEFAULT_WARRANTY_MONTHS,
  isValidEconomicOperatorId,
  isValidFacilityId,
  MAX_WARRANTY_MONTHS,
  readCompanySettings,
} from '../../../src/accounts/settings/company-settings.ts';
import {
  changeCompanySettings,
  SettingsPreconditionFailed,
  settingsEtag,
} from '../../../src/accounts/settings/settings-etag.ts';
import { httpUrl } from '../../../src/lifecycle/mint/mint-request.ts';
import type { AppContext } from '../../context.ts';
import { requireRight } from '../../middleware/require-right.ts';
import { Problem } from '../../problem.ts';
import { defineRoute } from '../../route.ts';

const settingsBody = z.object({
  success: z.literal(true),
  settings: z.object({
    defaultConformityUrl: z
      .string()
      .nullable()
      .describe(
        'Declaration of conformity written into custom_dpp_data.conformity_url of a mint that brings none ' +
          '(mint shape B without customDppData.conformity_url, toolbox bind shape B). null: such a mint is ' +
          'refused with 400 conformity_required.',
      ),
    warrantyMonths: z
      .number()
      .int()
      .describe(
        `Months of warranty a sale (SOLD / INITIAL_SALE) starts; default ${DEFAULT_WARRANTY_MONTHS}.`,
      ),
    economicOperatorId: z
      .string()
      .nullable()
      .describe(
        'The EN 18223 passport header’s economicOperatorId on every passport of this environment: the ' +
          'company’s GLN (13 digits, GS1 check digit) or EORI (country code + up to 15 letters/digits). ' +
          'null: not set (the header shows null).',
      ),
    facilityId: z
      .string()
      .nullable()
      .describe('The header’s optional facilityId: a GLN or an absolute URI (https:, urn:); null: none.'),
  }),
});

const economicOperatorId = z.string().refine(isValidEconomicOperatorId, {
  message: 'Expected a GLN (13 digits with a valid GS1 check digit) or an EORI (e.g. DE123456789012345).',
});
const facilityId = z.string().refine(isValidFacilityId, {
  message: 'Expected a GLN (13 digits with a valid GS1 check digit) or an absolute https:/urn: URI.',
});

/** The settings as the answer's body, with their ETag header (what a later PATCH sends as If-Match). */
function answer(ctx: AppContext, settings: CompanySettings): void {
  ctx.set('ETag', settingsEtag(settings));
  ctx.set('Cache-Control', 'no-store');
  ctx.body = { success: true, settings };
}

const CREDENTIALS =
  'An API key or OAuth client acts with the company’s full rights; a person (console session, user token) ' +
  'reads with any role and changes with the managePassports right (owner or developer), 403 role_forbidden ' +
  'otherwise.';

export const companySettingsRoutes = [
  defineRoute({
    method: 'get',
    path: '/v1/company/settings',
    operationId: 'getCompanySettings',
    summary:
      'The company’s product settings in this environment (conformity default, warranty months, economic ' +
      'operator and facility of the passport header).',
    description: `The answer carries a strong ETag over the settings; send it as If-Match on PATCH. ${CREDENTIALS}`,
    tags: ['company'],
    auth: 'apiKeyOrUser',
    responses: {
      200: { description: 'The settings (defaults where never set); ETag header.', schema: settingsBody },
    },
    handler: async (ctx: AppContext) => {
      await requireRight(ctx, 'read', 'see the product settings');
      answer(ctx, await readCompanySettings(ctx.state.em!, ctx.state.scope!));
    },
  }),
  defineRoute({
    method: 'patch',
    path: '/v1/company/settings',
    operationId: 'updateCompanySettings',
    summary: 'Change the company’s product settings in this environment; members left out stay as they are.',
    description:
      'Settings are per environment, like everything a company owns: a test key changes the test settings only. ' +
      'A changed default conformity link applies to mints started afterwards; a changed warranty length to ' +
      'sales logged afterwards (a running warranty is not recomputed). A changed economic operator or facility ' +
      'shows in every passport header at once and makes a new version of each passport when its content next ' +
      'changes. Concurrency: GET and this answer carry a strong ETag; send it as If-Match to change only the ' +
      'settings you read (412 precondition_failed otherwise, with the current `settings` and `currentETag`; ' +
      `\`If-Match: *\` always holds). Without If-Match the members sent are written over whatever stands. ${CREDENTIALS}`,
    tags: ['company'],
    auth: 'apiKeyOrUser',
    body: z
      .object({
        defaultConformityUrl: httpUrl.nullable().optional(),
        warrantyMonths: z
          .number({ message: 'Expected a whole number of months.' })
          .int('Expected a whole number of months.')
          .min(1, 'Expected at least 1 month.')
          .max(MAX_WARRANTY_MONTHS, `Expected at most ${MAX_WARRANTY_MONTHS} months.`)
          .optional(),
        economicOperatorId: economicOperatorId.nullable().optional(),
        facilityId: facilityId.nullable().optional(),
      })
      .strict(),
    responses: {
      200: { description: 'The settings as they are now; ETag header.', schema: settingsBody },
      412: {
        description:
          'precondition_failed: If-Match does not name the settings as they are now; `settings` and ' +
          '`currentETag` say what is current.',
      },
    },
    handler: async (ctx: AppContext, { body }) => {
      await requireRight(ctx, 'managePassports', 'change the product settings');
      const change: Partial<CompanySettings> = {};
      if (body.defaultConformityUrl !== undefined) change.defaultConformityUrl = body.defaultConformityUrl;
      if (body.warrantyMonths !== undefined) change.warrantyMonths = body.warrantyMonths;
      if (body.economicOperatorId !== undefined) change.economicOperatorId = body.economicOperatorId;
      if (body.facilityId !== undefined) change.facilityId = body.facilityId;
      const ifMatch = ctx.get('If-Match') || undefined;
      try {
        answer(ctx, await changeCompanySettings(ctx.state.em!, ctx.state.scope!, change, ifMatch));
      } catch (error) {
        if (!(error instanceof SettingsPreconditionFailed)) throw error;
        throw new Problem(412, 'precondition_failed', error.message, {
          title: 'Precondition Failed',
          headers: { ETag: error.currentEtag },
          extra: { currentETag: error.currentEtag, settings: error.current },
        });
      }
    },
  }),
];
