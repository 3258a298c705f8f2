import type { Overview } from '../overview-api.ts';
import { linkHandler } from '../router.ts';

interface Step {
  done: boolean;
  title: string;
  how: string;
  /** A console path, or an address outside the console (the API reference). */
  to: string;
  action: string;
}

/** The console path of an in-console link, or null for the service's own pages (/docs). */
const consolePath = (to: string) => (to.startsWith('/console/') ? to.slice('/console'.length) : null);

function steps(checklist: Overview['checklist']): Step[] {
  return [
    {
      done: checklist.apiKey,
      title: 'Create an API key',
      how: 'Your systems call the API with it. Start with a test key.',
      to: '/console/settings/developers',
      action: 'Go to Developers',
    },
    {
      done: checklist.testPassport,
      title: 'Mint a test passport',
      how: 'POST /v1/dpp/mint with the test key; the passport then shows under Passports.',
      to: '/docs#/dpp/mint',
      action: 'Open the mint operation in the API reference',
    },
    {
      done: checklist.webhookEndpoint,
      title: 'Add a webhook endpoint',
      how: 'Your systems hear about mints, revocations and recycling as they happen.',
      to: '/console/settings/webhooks',
      action: 'Go to Webhooks',
    },
    {
      done: checklist.verificationSubmitted,
      title: 'Submit your business verification',
      how: 'Stripe verifies the company (KYB) before live payments.',
      to: '/console/settings/compliance',
      action: 'Go to Compliance',
    },
    {
      done: checklist.liveKey,
      title: 'Go live: create a live API key',
      how: 'Switch the console to Live mode and create a key there (live mints need a plan: Billing).',
      to: '/console/settings/developers',
      action: 'Go to Developers',
    },
  ];
}

/** Getting started: five steps that tick themselves as the company does them. */
export function OnboardingChecklist({ checklist }: { checklist: Overview['checklist'] }) {
  const all = steps(checklist);
  const done = all.filter((step) => step.done).length;
  return (
    <section className="card checklist" aria-labelledby="checklist-heading">
      <h2 id="checklist-heading">Getting started</h2>
      <p className="hint">
        {done === all.length ? 'All done: your brand is live.' : `${done} of ${all.length} steps done.`}
      </p>
      <ol>
        {all.map((step) => {
          const path = consolePath(step.to);
          return (
            <li key={step.title} className={step.done ? 'done' : 'todo'}>
              <span className="tick" aria-hidden="true">
                {step.done ? '✓' : ''}
              </span>
              <div>
                <strong>{step.title}</strong>
                <span className="visually-hidden">{step.done ? ' (done)' : ' (to do)'}</span>
                <p className="hint">{step.how}</p>
                <a href={step.to} onClick={path ? linkHandler(path) : undefined}>
                  {step.action}
                </a>
              </div>
            </li>
          );
        })}
      </ol>
    </section>
  );
}
