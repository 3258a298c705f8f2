import { z } from 'zod';
import { readBranding } from '../../../src/accounts/branding/branding.ts';
import { formatDeposit } from '../../../src/lifecycle/recycling/deposit.ts';
import { PRODUCT_GROUP_DATA_SQL, productGroupEntries } from '../../../src/passport/content/pinned-sql.ts';
import { ITEM_LEVELS_SQL, itemLevelsOf } from '../../../src/passport/levels/item-levels.ts';
import { findPassportWithHistory, passportGtin } from '../../../src/passport/views/lookup.ts';
import { itemPageLevels, pageVerdict, verifyPageModel } from '../../../src/passport/views/page-model.ts';
import { readVerdict } from '../../../src/passport/views/tap-verdict.ts';
import type { AppContext } from '../../context.ts';
import { Problem } from '../../problem.ts';
import { defineRoute } from '../../route.ts';
import type { RouteDeps } from '../deps.ts';
import { publicEnvironment } from '../resolver/http.ts';
import { gtin14, gtinParam, serialParam } from '../resolver/params.ts';
import { publicPassportDeps } from '../resolver/public-passport-deps.ts';
import { pageBrand } from './page-brand.ts';
import { langQuery, pageLanguage } from './page-language.ts';
import { renderVerifyPage } from './render.ts';
import { sendPage } from './send-page.ts';
import { PAGE_ASSETS } from './static.ts';

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

export function verifyPageRoute(routeDeps: RouteDeps) {
  const deps = publicPassportDeps(routeDeps);
  return defineRoute({
    method: 'get',
    path: '/verify/01/:gtin/21/:serial',
    operationId: 'verificationPage',
    summary:
      'Consumer verification page (HTML): facts, status, provenance timeline, tap verdict, Web NFC scan.',
    description:
      'Server-rendered and complete without JavaScript; a script adds "Scan the tag" (Web NFC) where the browser ' +
      'supports it. `tap` is the signed verdict the resolver adds after verifying a tapped URL (shown for ten ' +
      'minutes; a forged or foreign token is ignored). Environment: x-service-env when sent, else live; test ' +
      'passports carry a banner. Strict Content-Security-Policy, all assets from this origin.',
    tags: ['gs1'],
    auth: 'none',
    params: z.object({ gtin: gtinParam, serial: serialParam }),
    query: z.object({
      tap: z.string().max(300).optional().describe('Signed tap verdict.'),
      lang: langQuery,
    }),
    responses: {
      200: { description: 'The page.', contentType: 'text/html' },
      404: { description: 'passport_not_found' },
    },
    handler: async (ctx: AppContext, { params, query }) => {
      const environment = publicEnvironment(ctx);
      const { language, explicit } = pageLanguage(ctx, query.lang);
      ctx.set('Cache-Control', 'no-store');
      const gtin = gtin14(params.gtin);
      const found = await findPassportWithHistory(deps.orm.em.fork(), environment, params.serial);
      if (!found || passportGtin(found.passport) !== gtin) {
        throw new Problem(
          404,
          'passport_not_found',
          `No passport for GTIN ${gtin} and serial ${params.serial}.`,
        );
      }
      const verdict = pageVerdict(
        query.tap === undefined
          ? undefined
          : readVerdict(deps.verdictKey, query.tap, { environment, tokenId: params.serial, now: new Date() }),
      );
      // The page is the public's: product-group data merged over the item's model and batch (docs/granularity.md),
      // then cut to the public role (a fresh tap's customer data is for the reads that carry the tap itself,
      // docs/disclosure.md). Its own data and its levels in one statement.
      const [row] = await deps.orm.em
        .fork()
        .execute<
          { service_uid: string; own: unknown; levels: unknown; deposit_wei: string; claim_open: boolean }[]
        >(
          `select p.service_uid, ${PRODUCT_GROUP_DATA_SQL} as own, ${ITEM_LEVELS_SQL} as levels,
             coalesce((select e.metadata->>'amountWei' from supply_chain_events e
                 where e.environment = p.environment and e.token_id = p.token_id
                   and e.action = 'RECYCLE_TRANSFER' limit 1),
               p.locked_deposit_wei::text) as deposit_wei,
             exists (select 1 from resales r where r.environment = p.environment and r.token_id = p.token_id
               and r.status = 'AWAITING_CLAIM') as claim_open
           from passports p where p.id = ?`,
          [found.passport.id],
        );
      const branding = await readBranding(deps.orm.em.fork(), {
        companyId: found.passport.companyId,
        environment,
      });
      const brand = pageBrand(
        branding,
        text(found.passport.metadata.custom_dpp_data?.manufacturer_name) ?? found.passport.companyName,
      );
      const model = {
        ...verifyPageModel(found.passport, found.events, verdict, {
          publicBaseUrl: deps.config.publicBaseUrl,
          language,
          brandLanguage: brand.defaultLanguage,
          explorerTemplate: deps.config.chain[environment].explorerTxUrl,
          imageOrigins: deps.config.page.imageOrigins,
        }),
        ...itemPageLevels(
          { serviceUid: row!.service_uid, environment },
          productGroupEntries(row!.own),
          itemLevelsOf(row!.levels),
          deps.config.publicBaseUrl,
        ),
      };
      const html = renderVerifyPage(
        {
          model,
          brand,
          owner: {
            claimOpen: row!.claim_open,
            deposit: BigInt(row!.deposit_wei) > 0n ? formatDeposit(row!.deposit_wei) : null,
          },
          selfPath: query.tap === undefined ? ctx.path : `${ctx.path}?tap=${encodeURIComponent(query.tap)}`,
          explicitLanguage: explicit,
        },
        PAGE_ASSETS,
      );
      // A page with a verdict is about one tap: never stored. Without one it is revalidated on every visit
      // (a revocation shows at once; an unchanged page costs a 304).
      sendPage(ctx, html, model.links.linkHeader, verdict.kind === 'none' ? 'no-cache' : 'no-store', {
        imageOrigins: deps.config.page.imageOrigins,
      });
    },
  });
}
