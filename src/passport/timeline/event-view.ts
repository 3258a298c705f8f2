import { keccak256, toUtf8Bytes } from 'ethers';
import type { SupplyChainEvent } from '../../platform/db/entities/index.ts';
import { canonicalJson } from '../../standards/ipfs/json.ts';
import { maskEmail } from './mask-email.ts';

/** The spec's supply-chain event resource; `actorEmail` is always masked. */
export interface SupplyChainEventView {
  id: number;
  tokenId: string;
  action: string;
  actor: string | null;
  actorEmail: string | null;
  locationName: string | null;
  latitude: number | null;
  longitude: number | null;
  metadata: Record<string, unknown>;
  dataHash: string | null;
  transactionHash: string | null;
  blockNumber: number | null;
  contractAddress: string | null;
  environment: string;
  timestamp: string;
  createdAt: string;
  updatedAt: string;
}

function numberOrNull(value: string | number | null | undefined): number | null {
  return value === null || value === undefined ? null : Number(value);
}

export function eventView(event: SupplyChainEvent): SupplyChainEventView {
  return {
    id: event.id,
    tokenId: event.tokenId,
    action: event.action,
    actor: event.actor ?? null,
    actorEmail: maskEmail(event.actorEmail),
    locationName: event.locationName ?? null,
    latitude: numberOrNull(event.latitude),
    longitude: numberOrNull(event.longitude),
    metadata: event.metadata,
    dataHash: event.dataHash ?? null,
    transactionHash: event.transactionHash ?? null,
    blockNumber: event.blockNumber ?? null,
    contractAddress: event.contractAddress ?? null,
    environment: event.environment,
    timestamp: event.timestamp.toISOString(),
    createdAt: event.createdAt.toISOString(),
    updatedAt: event.updatedAt.toISOString(),
  };
}

/** Fields of an event that its on-chain `dataHash` commits to (known before anchoring). */
export type AnchoredContent = Pick<
  SupplyChainEventView,
  | 'id'
  | 'tokenId'
  | 'action'
  | 'actor'
  | 'actorEmail'
  | 'locationName'
  | 'latitude'
  | 'longitude'
  | 'metadata'
  | 'timestamp'
>;

export function anchoredContent(view: AnchoredContent): AnchoredContent {
  const { id, tokenId, action, actor, actorEmail, locationName, latitude, longitude, metadata, timestamp } =
    view;
  return { id, tokenId, action, actor, actorEmail, locationName, latitude, longitude, metadata, timestamp };
}

/**
 * keccak256 of the UTF-8 bytes of the RFC 8785 canonical JSON of {@link anchoredContent} — with the masked
 * e-mail, so anyone holding the event as the API shows it can recompute the hash logged on chain.
 */
export function eventDataHash(view: AnchoredContent): string {
  return keccak256(toUtf8Bytes(canonicalJson(anchoredContent(view))));
}
