import { useRight } from '../../rights.tsx';
import { BASE, linkHandler } from '../../router.ts';
import { isObject } from './pointer.ts';

/**
 * What a passport actually holds, read from its EN 18222 document (GET /v1/dpps/{id}, the owner's view merged
 * with its model's and batch's data, as the public page is): the manufacturer and materials the public page
 * shows (mint metadata, else product-group data, else the company), and where inherited values come from.
 */

type Json = Record<string, unknown>;

const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value : undefined);

/** The first `field` found breadth first in the product-group sections, with its pointer. */
function findField(
  sections: [string, Json][],
  field: string,
): { value: string; pointer: string; spec: string } | undefined {
  for (const [spec, section] of sections) {
    const queue: [Json, string][] = [[section, '']];
    while (queue.length > 0) {
      const [object, pointer] = queue.shift()!;
      const found = text(object[field]);
      if (found) return { value: found, pointer: `${pointer}/${field}`, spec };
      for (const [key, value] of Object.entries(object)) {
        if (isObject(value)) queue.push([value, `${pointer}/${key}`]);
      }
    }
  }
  return undefined;
}

function label(dppId: string, document: Json) {
  if (dppId === document.modelDppId) return 'the model passport';
  if (dppId === document.batchDppId) return 'the batch passport';
  return dppId;
}

export function ProductFacts({ document, companyName }: { document: Json; companyName: string }) {
  const ids = (document.contentSpecificationIds as string[] | undefined) ?? [];
  const mayEdit = useRight('managePassports');
  const sections = ids
    .filter((id) => id.startsWith('urn:dpp-service:spec:') && isObject(document[id]))
    .map((id) => [id, document[id] as Json] as [string, Json]);
  const operator = Object.values(document).find(
    (value): value is Json => isObject(value) && 'metadata' in value,
  );
  const metadata = isObject(operator?.metadata) ? operator.metadata : {};
  const custom = isObject(metadata.custom_dpp_data) ? metadata.custom_dpp_data : {};
  // Document pointer (/<specId>/<field>…) → the dppId the value comes from.
  const sources = (document.contentSources ?? {}) as Record<string, string>;
  const sourceOf = (spec: string, pointer: string) => sources[`/${spec}${pointer}`];

  const made = findField(sections, 'manufacturerName');
  const manufacturer = text(custom.manufacturer_name) ?? made?.value ?? companyName;
  const madeFrom = !text(custom.manufacturer_name) && made ? sourceOf(made.spec, made.pointer) : undefined;
  const composition = isObject(custom.material_composition) ? custom.material_composition : {};
  const chemistry = findField(sections, 'chemistry');
  const materials = [
    ...(text(operator?.material) ? [String(operator?.material)] : []),
    ...Object.entries(composition)
      .filter((entry): entry is [string, number] => typeof entry[1] === 'number')
      .map(([name, share]) => `${name} ${share} %`),
    ...(chemistry ? [`${chemistry.value} (battery chemistry)`] : []),
  ];
  const inheritedFrom = [...new Set(Object.values(sources))].filter(
    (dppId) => dppId !== document.digitalProductPassportId,
  );

  return (
    <>
      <dt>Manufacturer</dt>
      <dd>
        {manufacturer}
        {madeFrom && madeFrom !== document.digitalProductPassportId
          ? ` (from ${label(madeFrom, document)})`
          : ''}
      </dd>
      <dt>Materials</dt>
      <dd>{materials.length > 0 ? materials.join(', ') : 'None stated'}</dd>
      <dt>Country of origin</dt>
      <dd>
        {text(custom.originCountry) ?? findField(sections, 'countryOfProduction')?.value ?? 'Not stated'}
      </dd>
      <dt>Product data</dt>
      <dd>
        {sections.length > 0 ? sections.map(([id]) => id).join(', ') : 'None written yet'}
        {inheritedFrom.length > 0
          ? ` · inherits from ${inheritedFrom.map((dppId) => label(dppId, document)).join(' and ')}`
          : ''}{' '}
        <a
          href={`${BASE}/authoring/${String(document.digitalProductPassportId)}`}
          onClick={linkHandler(`/authoring/${String(document.digitalProductPassportId)}`)}
        >
          {mayEdit ? 'Edit product data' : 'See product data'}
        </a>
      </dd>
    </>
  );
}
