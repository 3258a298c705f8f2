import { z } from 'zod';
import { resolverDescription } from '../../../src/passport/views/linkset.ts';
import { ENVIRONMENTS, type Environment } from '../../../src/platform/config/config.ts';
import {
  CONTEXT_DOCUMENTS,
  DPP_CONTEXT_PATH,
  UNTP_DPP_EXTENSION_PATH,
  UNTP_VARIANTS_CONTEXT_PATH,
  untpExtensionContext,
  untpVariantsContext,
} from '../../../src/standards/credentials/contexts.ts';
import { DID_DOCUMENT_PATHS } from '../../../src/standards/credentials/did-web.ts';
import { statusListCredentialText } from '../../../src/standards/credentials/status-list-credentials.ts';
import type { AppContext } from '../../context.ts';
import { defineRoute, type RouteSpec } from '../../route.ts';
import type { RouteDeps } from '../deps.ts';
import { allowAnyOrigin, publicEnvironment, sendText } from './http.ts';
import { publicPassportDeps } from './public-passport-deps.ts';

const DID_CONTENT_TYPE = 'application/did+ld+json';
const IMMUTABLE = 'public, max-age=31536000, immutable';
const dppContext = JSON.stringify(CONTEXT_DOCUMENTS.dppV1);

/** The resolver description, the issuer's DID documents, status list credentials and our JSON-LD context. */
export function discoveryRoutes(routeDeps: RouteDeps): RouteSpec[] {
  const deps = publicPassportDeps(routeDeps);
  const base = deps.config.publicBaseUrl;
  const untpExtension = JSON.stringify(untpExtensionContext(base));
  const untpVariants = JSON.stringify(untpVariantsContext(base));
  const didDocument = (environment: Environment) => async (ctx: AppContext) => {
    allowAnyOrigin(ctx);
    const document = await deps.issuer.keyring.didDocument(environment);
    sendText(ctx, JSON.stringify(document), DID_CONTENT_TYPE, 'public, max-age=300');
  };
  return [
    defineRoute({
      method: 'get',
      path: '/.well-known/gs1resolver',
      operationId: 'gs1ResolverDescription',
      summary: 'GS1 resolver description file: root, primary keys (01), link types.',
      description:
        'supportedLinkType names the GS1 Web Vocabulary; linkTypes (ours) lists the link types every passport’s ' +
        'linkset offers: gs1:pip, gs1:verificationService, gs1:dpp, gs1:sustainabilityInfo, gs1:recyclingInfo, ' +
        'gs1:certificationInfo (with a declaration of conformity), gs1:defaultLink.',
      tags: ['gs1'],
      auth: 'none',
      responses: { 200: { description: 'The description.' } },
      handler: async (ctx: AppContext) => {
        allowAnyOrigin(ctx);
        sendText(ctx, JSON.stringify(resolverDescription(base)), 'application/json', 'public, max-age=3600');
      },
    }),
    defineRoute({
      method: 'get',
      path: DID_DOCUMENT_PATHS.live[0]!,
      operationId: 'issuerDidDocument',
      summary: 'did:web document of the credentials’ issuer (live; test with x-service-env: test).',
      description:
        'Live credentials are issued by did:web:{host} (this document), test ones by did:web:{host}:test ' +
        '(/test/did.json). Every Ed25519 key that has signed for the environment is listed as a Multikey ' +
        'verification method and assertion method, the current one first: rotating the key keeps earlier ' +
        'credentials verifiable.',
      tags: ['gs1'],
      auth: 'none',
      responses: { 200: { description: 'The DID document.', contentType: DID_CONTENT_TYPE } },
      handler: async (ctx: AppContext) => didDocument(publicEnvironment(ctx))(ctx),
    }),
    ...(['/did.json', ...DID_DOCUMENT_PATHS.test] as const).map((path) =>
      defineRoute({
        method: 'get',
        path,
        operationId: path === '/did.json' ? 'issuerDidDocumentAtRoot' : 'testIssuerDidDocument',
        summary:
          path === '/did.json'
            ? 'did:web document of the live issuer when PUBLIC_BASE_URL has a path (did:web:{host}:{path}).'
            : 'did:web document of the test environment’s issuer (did:web:{host}:test).',
        tags: ['gs1'],
        auth: 'none',
        responses: { 200: { description: 'The DID document.', contentType: DID_CONTENT_TYPE } },
        handler: didDocument(path === '/did.json' ? 'live' : 'test'),
      }),
    ),
    defineRoute({
      method: 'get',
      path: '/credentials/status/:environment/:list',
      operationId: 'statusListCredential',
      summary: 'BitstringStatusListCredential (revocation) named by passport credentials.',
      description:
        '131,072 entries (W3C minimum for herd privacy), GZIP-compressed, multibase base64url (u…), signed ' +
        'with eddsa-rdfc-2022 by the environment’s issuer. A revoked or recycled passport’s bit is 1 from the ' +
        'moment it is revoked: the list is signed again when its content changes and answered with ' +
        'Cache-Control: no-cache (revalidate with the ETag). A list no passport uses → 404.',
      tags: ['gs1'],
      auth: 'none',
      params: z.object({
        environment: z.enum(ENVIRONMENTS),
        list: z.coerce.number().int().min(1).max(1_000_000),
      }),
      responses: { 200: { description: 'The signed status list.', contentType: 'application/ld+json' } },
      handler: async (ctx: AppContext, { params }) => {
        allowAnyOrigin(ctx);
        const text = await statusListCredentialText(
          deps.orm.em.fork(),
          deps.issuer,
          base,
          params.environment,
          params.list,
        );
        sendText(ctx, text, 'application/ld+json', 'no-cache');
      },
    }),
    defineRoute({
      method: 'get',
      path: DPP_CONTEXT_PATH,
      operationId: 'dppJsonLdContext',
      summary: 'JSON-LD context of the passport credential’s terms (dpp:, idpp:); it never changes.',
      tags: ['gs1'],
      auth: 'none',
      responses: { 200: { description: 'The context.', contentType: 'application/ld+json' } },
      handler: async (ctx: AppContext) => {
        allowAnyOrigin(ctx);
        sendText(ctx, dppContext, 'application/ld+json', IMMUTABLE);
      },
    }),
    defineRoute({
      method: 'get',
      path: UNTP_DPP_EXTENSION_PATH,
      operationId: 'untpDppJsonLdContext',
      summary:
        'JSON-LD context the UNTP credential (format=untp) adds to UNTP 0.7.0’s: DigitalProductPassport and the ' +
        'EN 18223 passport header’s terms; it never changes.',
      tags: ['gs1'],
      auth: 'none',
      responses: { 200: { description: 'The context.', contentType: 'application/ld+json' } },
      handler: async (ctx: AppContext) => {
        allowAnyOrigin(ctx);
        sendText(ctx, untpExtension, 'application/ld+json', IMMUTABLE);
      },
    }),
    defineRoute({
      method: 'get',
      path: UNTP_VARIANTS_CONTEXT_PATH,
      operationId: 'untpVariantsJsonLdContext',
      summary:
        'JSON-LD context of UNTP per-audience variants (accessRole, otherVariants, productGroupData, claim ' +
        'stubs); it never changes.',
      tags: ['gs1'],
      auth: 'none',
      responses: { 200: { description: 'The context.', contentType: 'application/ld+json' } },
      handler: async (ctx: AppContext) => {
        allowAnyOrigin(ctx);
        sendText(ctx, untpVariants, 'application/ld+json', IMMUTABLE);
      },
    }),
  ];
}
