import { z } from 'zod';
import {
  type CompanySettings,
  DEFAULT_WARRANTY_MONTHS,
  isValidEconomicOperatorId,
  isValidFacilityId,
  MAX_WARRANTY_MONTHS,
  readCompanySettings,
  updateCompanySettings,
} from '../../../src/accounts/settings/company-settings.ts';
import { httpUrl } from '../../../src/lifecycle/mint/mint-request.ts';
import type { AppContext } from '../../context.ts';
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

const answer = (settings: CompanySettings) => ({ success: true, settings });

export const companySettingsRoutes = [
  defineRoute({
    method: 'get',
    path: '/v1/company/settings',
    operationId: 'getCompanySettings',
    summary:
      'The company’s product settings in this environment (conformity default, warranty months, economic ' +
      'operator and facility of the passport header).',
    tags: ['company'],
    auth: 'apiKey',
    responses: { 200: { description: 'The settings (defaults where never set).', schema: settingsBody } },
    handler: async (ctx: AppContext) => {
      ctx.body = answer(await readCompanySettings(ctx.state.em!, ctx.state.scope!));
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
      'changes.',
    tags: ['company'],
    auth: 'apiKey',
    body: z
      .object({
        defaultConformityUrl: httpUrl.nullable().optional(),
        warrantyMonths: z.number().int().min(1).max(MAX_WARRANTY_MONTHS).optional(),
        economicOperatorId: economicOperatorId.nullable().optional(),
        facilityId: facilityId.nullable().optional(),
      })
      .strict(),
    responses: { 200: { description: 'The settings as they are now.', schema: settingsBody } },
    handler: async (ctx: AppContext, { body }) => {
      const change: Partial<CompanySettings> = {};
      if (body.defaultConformityUrl !== undefined) change.defaultConformityUrl = body.defaultConformityUrl;
      if (body.warrantyMonths !== undefined) change.warrantyMonths = body.warrantyMonths;
      if (body.economicOperatorId !== undefined) change.economicOperatorId = body.economicOperatorId;
      if (body.facilityId !== undefined) change.facilityId = body.facilityId;
      ctx.body = answer(await updateCompanySettings(ctx.state.em!, ctx.state.scope!, change));
    },
  }),
];
