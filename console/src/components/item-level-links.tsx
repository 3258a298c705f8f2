import { levelPath } from '../levels-api.ts';
import { BASE, linkHandler } from '../router.ts';

interface ItemLevelLinksProps {
  /** The item's EN 18222 document: its header names its model and batch passports (null: none). */
  document: Record<string, unknown>;
  gtin: string | null;
  batch: string | null;
}

function LevelLink({ dppId, text }: { dppId: string; text: string }) {
  return (
    <a href={`${BASE}${levelPath(dppId)}`} onClick={linkHandler(levelPath(dppId))}>
      {text}
    </a>
  );
}

/** An item's batch and model passports (what it inherits from), as rows of the passport page's facts. */
export function ItemLevelLinks({ document, gtin, batch }: ItemLevelLinksProps) {
  const model = typeof document.modelDppId === 'string' ? document.modelDppId : null;
  const batchId = typeof document.batchDppId === 'string' ? document.batchDppId : null;
  return (
    <>
      <dt>Batch passport</dt>
      <dd>
        {batchId ? (
          <LevelLink dppId={batchId} text={`Batch ${batch ?? ''} of ${gtin ?? ''}`} />
        ) : batch ? (
          'None for this batch yet'
        ) : (
          'None (no batch given at mint)'
        )}
      </dd>
      <dt>Model passport</dt>
      <dd>{model ? <LevelLink dppId={model} text={`Model ${gtin ?? ''}`} /> : 'None for this GTIN yet'}</dd>
    </>
  );
}
