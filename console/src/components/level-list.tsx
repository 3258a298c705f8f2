import { useCallback, useEffect, useState } from 'react';
import type { Environment } from '../api.ts';
import { type LevelGranularity, type LevelRow, levelName, levelPath, levels } from '../levels-api.ts';
import { BASE, linkHandler, navigate } from '../router.ts';
import { Pager } from './pager.tsx';

interface LevelListProps {
  granularity: LevelGranularity;
  environment: Environment;
  onFail: (caught: unknown) => void;
}

const dateTime = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' });

/** The company's model (or batch) passports, newest first, a page at a time; a row opens the passport. */
export function LevelList({ granularity, environment, onFail }: LevelListProps) {
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const [page, setPage] = useState<{ levels: LevelRow[]; nextCursor: string | null } | null>(null);
  const cursor = cursors.at(-1) ?? null;
  const plural = granularity === 'model' ? 'model passports' : 'batch passports';

  const load = useCallback(async () => {
    setPage(null);
    try {
      setPage(await levels.list(environment, granularity, cursor));
    } catch (caught) {
      onFail(caught);
      setPage({ levels: [], nextCursor: null });
    }
  }, [environment, granularity, cursor, onFail]);
  useEffect(() => {
    void load();
  }, [load]);

  if (page === null) return <p role="status">Loading {plural}…</p>;
  return (
    <>
      {page.levels.length === 0 ? (
        <p role="status">
          No {environment} {plural} yet. A {granularity} passport states once what every item of its{' '}
          {granularity === 'model' ? 'GTIN' : 'GTIN and lot'} shares; its items inherit it.
        </p>
      ) : (
        <table className="keys passports clickable-rows">
          <caption className="visually-hidden">
            The {environment} {plural}, page {cursors.length}
          </caption>
          <thead>
            <tr>
              <th scope="col">Passport</th>
              <th scope="col">GTIN</th>
              {granularity === 'batch' ? <th scope="col">Batch</th> : null}
              <th scope="col">Status</th>
              <th scope="col">Created</th>
              <th scope="col">Last changed</th>
            </tr>
          </thead>
          <tbody>
            {page.levels.map((level) => {
              const path = levelPath(level.digitalProductPassportId);
              return (
                <tr
                  key={level.digitalProductPassportId}
                  onClick={(event) => {
                    if (window.getSelection()?.toString()) return;
                    if ((event.target as HTMLElement).closest('a, button')) return;
                    navigate(path);
                  }}
                >
                  <td data-label="Passport">
                    <a href={`${BASE}${path}`} onClick={linkHandler(path)}>
                      {levelName(level)}
                    </a>
                  </td>
                  <td data-label="GTIN">{level.gtin}</td>
                  {granularity === 'batch' ? <td data-label="Batch">{level.lot}</td> : null}
                  <td data-label="Status">
                    <span className={`badge badge-${level.dppStatus.toLowerCase()}`}>
                      {level.dppStatus.charAt(0).toUpperCase() +
                        level.dppStatus.slice(1).replaceAll('_', ' ')}
                    </span>
                  </td>
                  <td data-label="Created">{dateTime.format(new Date(level.createdAt))}</td>
                  <td data-label="Last changed">{dateTime.format(new Date(level.updatedAt))}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      <Pager
        label={`Pages of ${plural}`}
        cursors={cursors}
        nextCursor={page.nextCursor}
        onChange={setCursors}
      />
    </>
  );
}
