import { z } from 'zod';
import { clientHash } from '../../../src/chips/signals/client-hash.ts';
import { negotiateLanguage, PAGE_LANGUAGES } from '../../../src/passport/views/i18n/languages.ts';
import { verifyPagePath } from '../../../src/passport/views/linkset.ts';
import { findPassport, passportBatch, passportGtin } from '../../../src/passport/views/lookup.ts';
import { checkPassportTap, hasSunParameters, reopenedClaim } from '../../../src/passport/views/tap.ts';
import { signVerdict } from '../../../src/passport/views/tap-verdict.ts';
import { verdictText } from '../../../src/passport/views/verdict-text.ts';
import { normalizeGtin } from '../../../src/standards/gs1/gtin.ts';
import type { AppContext } from '../../context.ts';
import { Problem } from '../../problem.ts';
import { defineRoute } from '../../route.ts';
import type { RouteDeps } from '../deps.ts';
import { publicEnvironment } from '../resolver/http.ts';
import { publicPassportDeps } from '../resolver/public-passport-deps.ts';

const DIGITAL_LINK_PATH = /^(\/test)?\/01\/(\d{8,14})(?:\/10\/([^/]+))?\/21\/([^/]+)\/?$/;

function itemOf(url: string): {
  test: boolean;
  gtin: string;
  batch: string | undefined;
  serial: string;
  query: string;
} {
  let parsed: URL;
  try {
    parsed = new URL(url, 'http://resolver.invalid');
  } catch {
    throw new Problem(400, 'not_a_digital_link', 'The tag’s URL is not a URL.');
  }
  const match = DIGITAL_LINK_PATH.exec(parsed.pathname);
  const gtin = match ? normalizeGtin(match[2]!) : undefined;
  if (!match || !gtin) {
    throw new Problem(
      400,
      'not_a_digital_link',
      'The tag’s URL is not a GS1 Digital Link with GTIN and serial.',
    );
  }
  const decode = (value: string | undefined) => {
    if (value === undefined) return undefined;
    try {
      return decodeURIComponent(value);
    } catch {
      throw new Problem(400, 'not_a_digital_link', 'The tag’s URL has a malformed percent-encoding.');
    }
  };
  return {
    test: match[1] !== undefined,
    gtin,
    batch: decode(match[3]),
    serial: decode(match[4])!,
    query: parsed.search.slice(1),
  };
}

export function tapRoute(routeDeps: RouteDeps) {
  const deps = publicPassportDeps(routeDeps);
  return defineRoute({
    method: 'post',
    path: '/verify/tap',
    operationId: 'verifyScannedTag',
    summary: 'Verify a tag the verification page scanned with Web NFC (its SUN URL).',
    description:
      '`url` is what the tag holds: the passport’s Digital Link with SUN parameters (its host is not checked: ' +
      'the chip signs the parameters, not the host). Verified as a tap on the resolver (counter accepted once); ' +
      'answers the verdict, its words and `location`, the verification page carrying it. Environment: ' +
      'x-service-env when sent, else live.',
    tags: ['gs1'],
    auth: 'none',
    body: z
      .object({
        url: z.string().min(1).max(2048),
        lang: z
          .enum(PAGE_LANGUAGES)
          .optional()
          .describe('The language of title and message (the page’s); else Accept-Language, else English.'),
      })
      .strict(),
    responses: {
      200: {
        description: 'The verdict.',
        schema: z.object({
          success: z.literal(true),
          verdict: z.enum(['authentic', 'replayed', 'forged', 'unverifiable']),
          title: z.string(),
          message: z.string(),
          checkedAt: z.string(),
          verificationCount: z.number().int().describe('Genuine taps so far, this one included.'),
          gtin: z.string(),
          serial: z.string(),
          location: z.string(),
        }),
      },
      400: { description: 'not_a_digital_link, no_sun_signature' },
      404: { description: 'passport_not_found' },
    },
    handler: async (ctx: AppContext, { body }) => {
      ctx.set('Cache-Control', 'no-store');
      const item = itemOf(body.url);
      const environment = publicEnvironment(ctx);
      // A test passport's tag holds its /test address: never resolved as a live one.
      if (item.test && environment !== 'test') {
        throw new Problem(
          400,
          'environment_mismatch',
          'The tag holds a test passport’s address: post it to /test/verify/tap.',
        );
      }
      if (!hasSunParameters(Object.fromEntries(new URLSearchParams(item.query)))) {
        throw new Problem(
          400,
          'no_sun_signature',
          'The tag’s URL carries no SUN signature (picc_data and cmac).',
        );
      }
      const em = deps.orm.em.fork();
      const passport = await findPassport(em, environment, item.serial);
      if (
        !passport ||
        passportGtin(passport) !== item.gtin ||
        (item.batch !== undefined && passportBatch(passport) !== item.batch)
      ) {
        throw new Problem(
          404,
          'passport_not_found',
          `No passport for GTIN ${item.gtin} and serial ${item.serial}.`,
        );
      }
      const client = clientHash(deps.verdictKey, ctx.state.clientAddress);
      const { verdict, reopenings } = await checkPassportTap(
        em,
        deps.secretBox,
        passport,
        item.query,
        client,
      );
      const checkedAt = Math.floor(Date.now() / 1000);
      const after = await findPassport(em, environment, passport.tokenId);
      const token = signVerdict(deps.verdictKey, {
        verdict,
        environment,
        tokenId: passport.tokenId,
        checkedAt,
        reopened: reopenedClaim(reopenings),
      });
      ctx.body = {
        success: true,
        verdict,
        ...verdictText(negotiateLanguage(body.lang, ctx.get('accept-language') || undefined))[verdict],
        checkedAt: new Date(checkedAt * 1000).toISOString(),
        verificationCount: after?.verificationCount ?? passport.verificationCount,
        gtin: item.gtin,
        serial: passport.tokenId,
        location: `${verifyPagePath(environment, item.gtin, passport.tokenId)}?tap=${token}${body.lang ? `&lang=${body.lang}` : ''}`,
      };
    },
  });
}
