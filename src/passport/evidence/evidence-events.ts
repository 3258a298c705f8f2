import type { EntityManager } from '@mikro-orm/postgresql';
import type { Environment } from '../../platform/config/config.ts';
import type { EventRow } from '../record/passport-versions.ts';
import { pgTimestamp } from '../record/pg-values.ts';
import { anchoredContent } from '../timeline/event-view.ts';
import { maskEmail } from '../timeline/mask-email.ts';
import type { EvidenceAnchor, EvidenceEvent } from './bundle.ts';

interface AnchoredEventRow extends EventRow {
  token_id: string;
  data_hash: string | null;
  transaction_hash: string | null;
  block_number: string | number | null;
  contract_address: string | null;
}

/** The contract event each action recorded by a chain transaction of its own leaves (else logEvent's). */
const LOG_OF_ACTION: Record<string, EvidenceAnchor['log']> = {
  MINT: 'Minted',
  RECYCLE_TRANSFER: 'Recycled',
  AUTHORIZE_CLAIM: 'ClaimAuthorized',
  CLAIM_OWNERSHIP: 'OwnershipClaimed',
};

const num = (value: number | string | null) => (value === null ? null : Number(value));

/**
 * The passport's events in id order, each with the payload its data hash commits to (as the API shows the
 * event: e-mail masked, src/passport/timeline/event-view.ts) and its anchor as recorded (null while pending).
 */
export async function passportEvents(
  em: EntityManager,
  ref: { environment: Environment; tokenId: string; companyId: string },
): Promise<EvidenceEvent[]> {
  const rows = await em.getConnection().execute<AnchoredEventRow[]>(
    `select id, token_id, action, actor, actor_email, location_name, latitude, longitude, metadata, data_hash,
       transaction_hash, block_number, contract_address, timestamp
     from supply_chain_events where environment = ? and token_id = ? and company_id = ? order by id`,
    [ref.environment, ref.tokenId, ref.companyId],
  );
  return rows.map((row) => {
    const payload = anchoredContent({
      id: row.id,
      tokenId: row.token_id,
      action: row.action,
      actor: row.actor,
      actorEmail: maskEmail(row.actor_email),
      locationName: row.location_name,
      latitude: num(row.latitude),
      longitude: num(row.longitude),
      metadata: row.metadata,
      timestamp: pgTimestamp(row.timestamp).toISOString(),
    });
    const anchored =
      row.transaction_hash !== null && row.block_number !== null && row.contract_address !== null;
    return {
      payload: payload as unknown as Record<string, unknown>,
      dataHash: row.data_hash,
      anchor: anchored
        ? {
            log: LOG_OF_ACTION[row.action] ?? 'SupplyChainEvent',
            transactionHash: row.transaction_hash!,
            blockNumber: Number(row.block_number),
            contractAddress: row.contract_address!,
            dataHash: row.data_hash,
          }
        : null,
    };
  });
}
