import { createHash } from 'node:crypto';
import { canonicalJson } from '../../standards/ipfs/json.ts';
import type { AnchoredContent, SupplyChainEventView } from './event-view.ts';
import { anchoredContent } from './event-view.ts';

export interface ChainOfCustody {
  totalEvents: number;
  firstSeen: string | null;
  lastSeen: string | null;
  /** 0x-prefixed hex SHA-256 hash chain over the events (see {@link integrityHash}). */
  integrityHash: string;
}

type CustodyEvent = AnchoredContent & Pick<SupplyChainEventView, 'transactionHash'>;

/** The fields of one event the integrity hash covers: the anchored content plus its transaction hash. */
export function custodyContent(event: CustodyEvent): Record<string, unknown> {
  return { ...anchoredContent(event), transactionHash: event.transactionHash };
}

/**
 * h0 = 32 zero bytes; h_i = SHA-256(h_{i-1} ‖ UTF-8(canonical JSON of custodyContent(event_i))) over the
 * token's events in ascending id order (as the events list shows them, masked e-mails included).
 */
export function integrityHash(events: readonly CustodyEvent[]): string {
  let hash: Buffer = Buffer.alloc(32);
  for (const event of [...events].sort((a, b) => a.id - b.id)) {
    hash = createHash('sha256')
      .update(hash)
      .update(canonicalJson(custodyContent(event)), 'utf8')
      .digest();
  }
  return `0x${hash.toString('hex')}`;
}

export function chainOfCustody(events: readonly CustodyEvent[]): ChainOfCustody {
  const times = events.map((e) => e.timestamp).sort();
  return {
    totalEvents: events.length,
    firstSeen: times[0] ?? null,
    lastSeen: times[times.length - 1] ?? null,
    integrityHash: integrityHash(events),
  };
}
