import type { TimelineEntry, VerifyPageModel } from '../../../src/passport/views/page-model.ts';
import { esc, type PageText } from './page-text.ts';

function coordinates(text: PageText, latitude: number, longitude: number): string {
  const lat = `${text.number(Math.abs(latitude), 4)}° ${latitude >= 0 ? 'N' : 'S'}`;
  const lon = `${text.number(Math.abs(longitude), 4)}° ${longitude >= 0 ? 'E' : 'W'}`;
  return `${lat}, ${lon}`;
}

function stepLabel(text: PageText, entry: TimelineEntry): string {
  return (text.m.history as Record<string, string>)[entry.action] ?? entry.label;
}

function timelineItem(text: PageText, entry: TimelineEntry): string {
  const place = entry.place
    ? `<p class="timeline__place">${esc(entry.place)}${entry.latitude !== null && entry.longitude !== null ? ` <span class="meta">(${esc(coordinates(text, entry.latitude, entry.longitude))})</span>` : ''}</p>`
    : '';
  return `<li class="timeline__item" data-action="${esc(entry.action)}">
      <h3>${esc(stepLabel(text, entry))}</h3>
      <p class="meta">${text.time(entry.time)}</p>
      ${place}
    </li>`;
}

/** The product's history in plain words: what happened, when and where (the chain's proof is folded below). */
export function historySection(text: PageText, model: VerifyPageModel): string {
  return `<section id="provenance" class="card" aria-labelledby="provenance-title">
  <h2 id="provenance-title">${esc(text.m.history.title)}</h2>
  <ol class="timeline">
    ${model.timeline.map((entry) => timelineItem(text, entry)).join('\n    ')}
  </ol>
</section>`;
}

function hash(value: string, url: string | null, explorer: string): string {
  const code = `<code class="hash" title="${esc(value)}">${esc(`${value.slice(0, 10)}…${value.slice(-8)}`)}</code>`;
  return url
    ? `${code} <a class="explorer" href="${esc(url)}" rel="noopener noreferrer">${esc(explorer)}</a>`
    : code;
}

/**
 * The on-chain proof, folded: the contract and every step's transaction with its block explorer link, for the few
 * who want to check it themselves (a consumer needs none of it to read the verdict).
 */
export function chainSection(text: PageText, model: VerifyPageModel): string {
  const { m } = text;
  const steps = model.timeline.map(
    (entry) =>
      `<li data-action="${esc(entry.action)}"><span>${esc(stepLabel(text, entry))}</span> ${
        entry.transactionHash
          ? hash(entry.transactionHash, entry.transactionUrl, m.chain.explorer)
          : `<span class="meta">${esc(m.chain.pending)}</span>`
      }</li>`,
  );
  return `<details id="chain-proof" class="card chain">
  <summary><h2 id="chain-title">${esc(m.chain.title)}</h2></summary>
  <p>${esc(m.chain.intro)}</p>
  <dl class="facts">
    <div class="facts__row"><dt>${esc(m.chain.contract)}</dt><dd class="mono">${esc(model.contractAddress)}</dd></div>
    <div class="facts__row"><dt>${esc(m.chain.issued)}</dt><dd id="mint-transaction">${hash(model.mintTransaction, model.mintTransactionUrl, m.chain.explorer)}</dd></div>
  </dl>
  <ol class="chain__steps">${steps.join('')}</ol>
</details>`;
}
