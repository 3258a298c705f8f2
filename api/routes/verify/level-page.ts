import { z } from 'zod';
import { findLevelByKey, levelDigitalLink } from '../../../src/passport/levels/levels.ts';
import { dppReadUrl, levelPagePath } from '../../../src/passport/views/level-links.ts';
import { modelOfBatch } from '../../../src/passport/views/level-representation.ts';
import { publicLevel } from '../../../src/passport/views/level-view.ts';
import { linksetLinkHeader } from '../../../src/passport/views/linkset.ts';
import type { AppContext } from '../../context.ts';
import { Problem } from '../../problem.ts';
import { defineRoute } from '../../route.ts';
import type { RouteDeps } from '../deps.ts';
import { publicEnvironment } from '../resolver/http.ts';
import { batchParam, gtin14, gtinParam } from '../resolver/params.ts';
import { renderLevelPage } from './level-render.ts';
import { langQuery, pageLanguage } from './page-language.ts';
import { pageText } from './page-text.ts';
import { sendPage } from './send-page.ts';
import { PAGE_ASSETS } from './static.ts';

/**
 * The pages of model and batch passports (`/verify/01/{gtin}`, `/verify/01/{gtin}/10/{lot}`): where their
 * Digital Links send a browser. Public data only, as the passport's anonymous EN 18222 read.
 */
export function levelPageRoutes(routeDeps: RouteDeps) {
  const { config, orm } = routeDeps;
  const handler = async (
    ctx: AppContext,
    params: { gtin: string; batch?: string | undefined },
    query: { lang?: string | undefined },
  ) => {
    const environment = publicEnvironment(ctx);
    const { language, explicit } = pageLanguage(ctx, query.lang);
    ctx.set('Cache-Control', 'no-store');
    const gtin = gtin14(params.gtin);
    const em = orm.em.fork();
    const level = await findLevelByKey(em, environment, gtin, params.batch ?? null);
    if (!level) {
      const what = params.batch === undefined ? 'model' : `batch ${params.batch}`;
      throw new Problem(404, 'passport_not_found', `No ${what} passport for GTIN ${gtin}.`);
    }
    const base = config.publicBaseUrl;
    const [view, model] = await Promise.all([publicLevel(em, level), modelOfBatch(orm.em.fork(), level)]);
    const digitalLink = levelDigitalLink(base, level);
    const html = renderLevelPage(
      {
        view,
        links: {
          linkset: `${digitalLink}?linkType=linkset`,
          dpp: dppReadUrl(base, level.serviceUid),
          publicJson: `${digitalLink}?format=public`,
          digitalLink,
        },
        model: model && {
          page: `${base}${levelPagePath(model)}`,
          view: await publicLevel(orm.em.fork(), model),
        },
        selfPath: ctx.path,
        explicitLanguage: explicit,
      },
      pageText(language),
      PAGE_ASSETS,
    );
    sendPage(ctx, html, linksetLinkHeader(digitalLink), 'no-cache');
  };
  const common = {
    method: 'get' as const,
    tags: ['gs1'],
    auth: 'none' as const,
    query: z.object({ lang: langQuery }),
    responses: {
      200: { description: 'The page.', contentType: 'text/html' },
      404: { description: 'passport_not_found' },
    },
  };
  return [
    defineRoute({
      ...common,
      path: '/verify/01/:gtin',
      operationId: 'modelPassportPage',
      summary: 'Page of a model passport (HTML): its public data, shared by every item of the product.',
      params: z.object({ gtin: gtinParam }),
      handler: async (ctx: AppContext, { params, query }) => handler(ctx, params, query),
    }),
    defineRoute({
      ...common,
      path: '/verify/01/:gtin/10/:batch',
      operationId: 'batchPassportPage',
      summary: 'Page of a batch passport (HTML): its public data and a link to its model passport.',
      params: z.object({ gtin: gtinParam, batch: batchParam }),
      handler: async (ctx: AppContext, { params, query }) => handler(ctx, params, query),
    }),
  ];
}
