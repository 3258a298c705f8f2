import type { EntityManager } from '@mikro-orm/postgresql';
import type { Environment } from '../../platform/config/config.ts';
import type { SecretBox } from '../../platform/secret-box.ts';
import type { LinkType } from '../../standards/gs1/link-types.ts';
import type { PassportCredentialDeps } from '../credentials/passport-credential.ts';
import type { AccessRole } from '../credentials/untp-variants.ts';
import type { CallerContext } from '../disclosure/caller-roles.ts';
import type { ItemKey } from './item-key.ts';

/** The representations of a passport a Digital Link serves. */
export const PASSPORT_FORMATS = ['vc', 'aas', 'public', 'erp', 'linkset', 'untp', 'vc-jwt'] as const;
export type PassportFormat = (typeof PASSPORT_FORMATS)[number];

/** What a request for a passport asks, once its route has negotiated it. */
export type PassportAsk =
  /** A representation; `accessRole`: the audience of a UNTP variant (untp, vc-jwt) or of the linkset's links. */
  | { kind: 'format'; format: PassportFormat; accessRole?: AccessRole | undefined }
  /** The consumer verification page (a browser). */
  | { kind: 'page' }
  /** A tapped chip's URL: its SUN parameters are in `query` (the raw query string). */
  | { kind: 'tap'; query: string; clientAddress?: string | undefined }
  /** One GS1 link type: `linkType` as parsed (undefined: not one we know), `asked` as written. */
  | { kind: 'link'; linkType: LinkType | undefined; asked: string };

export interface PassportRequest {
  environment: Environment;
  item: ItemKey;
  ask: PassportAsk;
}

/** What the core asks of, and tells, the side the request came from (the HTTP route). */
export interface RequestSide {
  /** The passport asked for exists: the answer, whatever it is, is about the item of this Digital Link. */
  found(anchor: string): void;
  /** format=erp: the caller's API key of the environment (its company, and a unit of work scoped to it). */
  apiKeyCaller(): Promise<{ companyId: string; em: EntityManager }>;
  /** A restricted UNTP variant: the caller, authenticated by whatever credential it sent (if any). */
  caller(): Promise<CallerContext>;
  /** The answer depends on the caller's credential (a restricted variant it may read). */
  variesByCredential(): void;
}

/** What a request for a passport is answered with. */
export type PassportAnswer =
  /** A representation; `etag` when known beforehand (stored with it); `private`: for its owner only. */
  | { kind: 'document'; body: string; etag?: string | undefined; private?: boolean }
  /** Elsewhere: the tap's verdict on the verification page, the link of a link type, or the page. */
  | { kind: 'redirect'; to: 'tap-verdict' | 'link' | 'page'; location: string };

export interface RepresentationDeps {
  /** The root entity manager: fast lookups read through its connection, full loads fork it. */
  orm: { readonly em: EntityManager };
  publicBaseUrl: string;
  credentials: PassportCredentialDeps;
  secretBox: SecretBox;
  /** Signs tap verdicts (src/passport/views/tap-verdict.ts). */
  verdictKey: Buffer;
}
