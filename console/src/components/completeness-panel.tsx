import '../pages/authoring/authoring.css';
import type { Completeness, MissingFact } from '../pages/authoring/authoring-api.ts';
import { fieldId, labelAt } from '../pages/authoring/schema-form.tsx';
import { BASE, linkHandler } from '../router.ts';

/**
 * What a passport still lacks (GET /v1/dpps/{id}/completeness): per section, each missing fact with a link to
 * what fills it — the authoring form's field, or the API reference of the setting or mint field.
 */
interface PanelProps {
  completeness: Completeness | null;
  /** The authoring page of this passport; on it, field links are anchors. */
  authoringPath: string;
  onAuthoringPage: boolean;
  /** The specification being edited: its fields are named by their labels rather than by pointer. */
  specification?: { id: string; schema: Record<string, unknown> } | undefined;
}

function Fix({
  missing,
  authoringPath,
  onAuthoringPage,
}: { missing: MissingFact } & Omit<PanelProps, 'completeness'>) {
  const { fix } = missing;
  if (fix.kind === 'content') {
    const anchor = `#${fieldId(fix.pointer === '/' ? '' : fix.pointer)}`;
    const path = `${authoringPath}?spec=${encodeURIComponent(fix.specificationId)}`;
    return onAuthoringPage ? (
      <a href={anchor}>Fill it in</a>
    ) : (
      <a href={`${BASE}${path}${anchor}`} onClick={linkHandler(`${path}${anchor}`)}>
        Fill it in
      </a>
    );
  }
  if (fix.kind === 'setting') {
    return (
      <a href={`${BASE}/settings/company`} onClick={linkHandler('/settings/company')}>
        Set {fix.setting} in Settings › Company
      </a>
    );
  }
  return <a href="/docs#/dpp/mint">Stated at mint in {fix.field}</a>;
}

export function CompletenessPanel({
  completeness,
  authoringPath,
  onAuthoringPage,
  specification,
}: PanelProps) {
  const factText = ({ fact, fix }: MissingFact) =>
    fix.kind === 'content' && fix.specificationId === specification?.id && fix.pointer !== '/'
      ? `${labelAt(specification.schema, fix.pointer)}${fact.slice(fact.indexOf(':'))}`
      : fact;
  return (
    <section className="card completeness" aria-labelledby="completeness-heading">
      <h2 id="completeness-heading">Completeness</h2>
      {completeness === null ? (
        <p role="status">Checking what this passport still needs…</p>
      ) : (
        <>
          <p className={completeness.complete ? 'success' : 'notice'} role="status">
            {completeness.complete
              ? 'All done: nothing is missing for the UNTP credential, the product rules or the passport header.'
              : `${completeness.sections.reduce((sum, s) => sum + s.missing.length, 0)} facts still missing.`}
          </p>
          <ul className="completeness-sections">
            {completeness.sections.map((section) => (
              <li key={section.id}>
                <strong>{section.title}</strong>:{' '}
                {section.missing.length === 0 ? (
                  <span className="done">done</span>
                ) : (
                  <ul>
                    {section.missing.map((missing) => (
                      <li key={missing.fact}>
                        {factText(missing)} —{' '}
                        <Fix
                          missing={missing}
                          authoringPath={authoringPath}
                          onAuthoringPage={onAuthoringPage}
                        />
                      </li>
                    ))}
                  </ul>
                )}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
