import { useCallback, useEffect, useState } from 'react';
import type { Environment, SessionUser } from '../api.ts';
import { AttentionList } from '../components/attention-list.tsx';
import { ErrorAlert } from '../components/error-alert.tsx';
import { OnboardingChecklist } from '../components/onboarding-checklist.tsx';
import { useFailure } from '../hooks/use-failure.ts';
import { usePageHeading } from '../hooks/use-page-heading.ts';
import { type Overview as OverviewData, overview } from '../overview-api.ts';
import { linkHandler } from '../router.ts';

interface OverviewProps {
  user: SessionUser;
  environment: Environment;
  onSessionEnded: (error: unknown) => boolean;
}

const STATES = [
  ['active', 'Active'],
  ['suspended', 'Suspended'],
  ['archived', 'Archived'],
  ['recycled', 'Recycled'],
  ['revoked', 'Revoked'],
  ['total', 'Total'],
] as const;

const number = new Intl.NumberFormat('en');

/** The landing page after sign-in: the company's passports and mints, what needs attention, getting started. */
export function Overview({ user, environment, onSessionEnded }: OverviewProps) {
  const { error, fail } = useFailure(onSessionEnded);
  const [data, setData] = useState<OverviewData | null>(null);
  const heading = usePageHeading('Overview');

  const load = useCallback(async () => {
    try {
      setData(await overview(environment));
    } catch (caught) {
      fail(caught);
    }
  }, [environment, fail]);
  useEffect(() => {
    void load();
  }, [load]);

  return (
    <section aria-labelledby="overview-heading" className="overview">
      <h1 id="overview-heading" ref={heading} tabIndex={-1}>
        Overview
      </h1>
      <p className="lede">
        {user.companyName} at a glance, in both environments. <a href="/docs">API reference</a>
      </p>
      <ErrorAlert error={error} />
      {data === null ? (
        <p role="status">Loading the overview…</p>
      ) : (
        <div className="overview-grid">
          <OnboardingChecklist checklist={data.checklist} />
          <AttentionList data={data} />
          <section className="card" aria-labelledby="passport-counts-heading">
            <h2 id="passport-counts-heading">Passports</h2>
            <table className="counts">
              <caption className="visually-hidden">Passports by state, test and live</caption>
              <thead>
                <tr>
                  <th scope="col">State</th>
                  <th scope="col">Test</th>
                  <th scope="col">Live</th>
                </tr>
              </thead>
              <tbody>
                {STATES.map(([key, label]) => (
                  <tr key={key} className={key === 'total' ? 'total' : undefined}>
                    <th scope="row">{label}</th>
                    <td>{number.format(data.passports.test[key])}</td>
                    <td>{number.format(data.passports.live[key])}</td>
                  </tr>
                ))}
                <tr>
                  <th scope="row">Mints under way</th>
                  <td>{data.mints ? number.format(data.mints.test.running) : '—'}</td>
                  <td>{data.mints ? number.format(data.mints.live.running) : '—'}</td>
                </tr>
              </tbody>
            </table>
            <p>
              <a href="/console/passports" onClick={linkHandler('/passports')}>
                Find a passport
              </a>
            </p>
          </section>
        </div>
      )}
    </section>
  );
}
