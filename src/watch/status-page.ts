/**
 * The daemon's status page (`GET /`): one read-only HTML document rendered on the server from the
 * state `/status` shows, so it reads the same with scripts off. It loads nothing from anywhere: its
 * style and its one small script are inline, allowed by a per-response nonce in a strict
 * Content-Security-Policy. The script polls `/status` and, when a reconcile started, progressed or
 * finished, fetches the page again and swaps in its `<main>`; without scripts a meta refresh
 * reloads it.
 */
import { counted } from '../count.js';
import { formatDuration } from '../duration.js';
import type { DaemonStatus, StatusView } from './readiness.js';
import { Html, html } from './html.js';
import type { ReconcileRecord } from './loop.js';
import type { ObjectState, ObjectStateName } from './object-states.js';
import type { PlanView } from './plan-view.js';

/** Headers of the page: nothing but its own inline style and script runs, it fetches only `/status` and `/`. */
export function statusPageHeaders(nonce: string): Record<string, string> {
  return {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'content-security-policy': [
      "default-src 'none'",
      `style-src 'nonce-${nonce}'`,
      `script-src 'nonce-${nonce}'`,
      "connect-src 'self'",
      "base-uri 'none'",
      "form-action 'none'",
      "frame-ancestors 'none'",
    ].join('; '),
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
  };
}

/**
 * What the script compares to tell that the page is out of date: the last finished reconcile and
 * the running one's progress. The script computes the same from `/status`.
 */
function versionOf(status: DaemonStatus): string {
  const running = status.running;
  return `${status.lastReconcile?.id ?? ''}|${running === undefined ? '' : `${running.id}:${running.planned ?? ''}:${running.done}:${running.failed}`}`;
}

/** Seconds between polls of `/status`; the meta refresh without scripts waits longer. */
const pollSeconds = 2;
const reloadSeconds = 10;

const script = `
(() => {
  const main = () => document.querySelector('main');
  const versionOf = (s) => {
    const r = s.running;
    return (s.lastReconcile ? s.lastReconcile.id : '') + '|' +
      (r ? r.id + ':' + (r.planned === undefined ? '' : r.planned) + ':' + r.done + ':' + r.failed : '');
  };
  const poll = async () => {
    try {
      const status = await (await fetch('/status', { cache: 'no-store' })).json();
      if (versionOf(status) === main().dataset.version) return;
      const text = await (await fetch('/', { cache: 'no-store' })).text();
      // Only the main element: the new page's style element carries another nonce, which this page's policy refuses.
      const part = text.slice(text.indexOf('<main'), text.indexOf('</main>') + 7);
      const fresh = new DOMParser().parseFromString(part, 'text/html').querySelector('main');
      if (fresh) main().replaceWith(fresh);
    } catch {
      // The daemon restarting or stopping: the next poll tries again.
    } finally {
      setTimeout(poll, ${pollSeconds * 1000});
    }
  };
  setTimeout(poll, ${pollSeconds * 1000});
})();
`;

const style = `
:root { color-scheme: light dark; --muted: #6b7280; --line: #d1d5db; --ok: #15803d; --warn: #b45309; --bad: #b91c1c; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.45 system-ui, sans-serif; }
main { max-width: 72rem; margin: 0 auto; padding: 1rem; }
h1 { font-size: 1.35rem; margin: 0 0 .25rem; }
h2 { font-size: 1.1rem; margin: 1.5rem 0 .5rem; }
.muted, dt { color: var(--muted); }
dl { display: grid; grid-template-columns: max-content 1fr; gap: .2rem 1rem; margin: 0; }
dd { margin: 0; overflow-wrap: anywhere; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; vertical-align: top; padding: .35rem .5rem; border-bottom: 1px solid var(--line); overflow-wrap: anywhere; }
code, pre { font: 13px/1.4 ui-monospace, monospace; }
pre { white-space: pre-wrap; margin: 0; }
.state { font-weight: 600; white-space: nowrap; }
.s-ok { color: var(--ok); }
.s-warn { color: var(--warn); }
.s-bad { color: var(--bad); }
.counts { display: flex; flex-wrap: wrap; gap: .25rem 1rem; padding: 0; list-style: none; }
ol.change { padding-left: 1.5rem; }
@media (max-width: 40rem) {
  main { padding: .5rem; }
  dl { grid-template-columns: 1fr; }
  dd { margin-bottom: .4rem; }
  thead { display: none; }
  tr { display: block; border-bottom: 1px solid var(--line); padding: .35rem 0; }
  td { display: block; border: 0; padding: .1rem 0; }
  td[data-label]::before { content: attr(data-label) ": "; color: var(--muted); }
  td[data-label]:empty { display: none; }
}
`;

const stateClass: Readonly<Record<ObjectStateName, string>> = {
  'in sync': 's-ok',
  'drift reverted': 's-ok',
  observed: 's-ok',
  drifted: 's-warn',
  differs: 's-warn',
  'observed, differs': 's-warn',
  'not converging': 's-bad',
  failing: 's-bad',
};

const statusClass = (status: string): string =>
  status === 'success' ? 's-ok' : status === 'standby' || status === 'stopped' ? 's-warn' : 's-bad';

/** A value of a field diff, as JSON, cut where a huge value would swamp the page. */
function shownValue(value: unknown): string {
  if (value === undefined) return '(unset)';
  const text = JSON.stringify(value) ?? typeof value;
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

/** Untrusted text in a `<pre>`, line by line: escaping alone would show a line break as `\n`. */
const lines = (texts: readonly string[]): Html =>
  html`<pre>
${texts.flatMap((t) => t.split('\n')).map((t, i) => html`${i === 0 ? '' : new Html('\n')}${t}`)}</pre>`;

function leaseLine(status: DaemonStatus): Html {
  const lease = status.lease;
  if (lease === undefined) return html`<span class="muted">not known yet</span>`;
  if (lease.state === 'none')
    return html`none
      <span class="muted"
        >(${status.mode === 'observe' ? 'observe mode never writes' : 'the embedded emulator is this process’s own'})</span
      >`;
  const cls = lease.state === 'active' ? 's-ok' : 's-warn';
  return html`<span class="state ${cls}">${lease.state}</span
    >${lease.holder === undefined ? '' : html` – ${lease.holder}`}`;
}

function daemonSection(status: DaemonStatus): Html {
  const config = status.config;
  return html`<section id="daemon" aria-labelledby="daemon-h">
    <h2 id="daemon-h">Daemon</h2>
    <dl>
      <dt>Scope</dt>
      <dd id="scope">${status.scope ?? html`<span class="muted">not planned yet</span>`}</dd>
      <dt>Environment</dt>
      <dd id="environment">
        ${status.environment ?? html`<span class="muted">none (the config declares no environments)</span>`}
      </dd>
      <dt>Account</dt>
      <dd id="account">${status.api ?? html`<span class="muted">unknown</span>`}</dd>
      <dt>Mode</dt>
      <dd>${status.mode}</dd>
      <dt>Lease</dt>
      <dd id="lease">${leaseLine(status)}</dd>
      <dt>Ready</dt>
      <dd>
        <span class="state ${status.ready ? 's-ok' : 's-bad'}">${status.ready ? 'yes' : 'no'}</span
        >${status.lastSuccessAt === undefined ? '' : html` <span class="muted">last success ${status.lastSuccessAt}</span>`}
      </dd>
      <dt>Config</dt>
      <dd>
        ${config === undefined ? html`<span class="muted">not loaded yet</span>` : html`${counted(config.managedObjects, 'object', 'objects')}, revision <code>${config.revision.replace(/^sha256:/, '').slice(0, 12)}</code>${config.gitCommit === undefined ? '' : html`, commit <code>${config.gitCommit.slice(0, 12)}</code>`}`}
      </dd>
      <dt>Now</dt>
      <dd id="now">
        ${
          status.running !== undefined
            ? html`reconcile <code>${status.running.id}</code> (${status.running.trigger}) running since
                ${status.running.startedAt}: ${status.running.done} done, ${status.running.failed}
                failed${status.running.planned === undefined ? ', planning' : html` of ${status.running.planned}`}`
            : status.nextRun !== undefined
              ? html`idle; next reconcile (${status.nextRun.trigger}) at ${status.nextRun.at}`
              : 'idle'
        }
      </dd>
    </dl>
  </section>`;
}

/** What a reconcile changed: its operations carried out, by action and key. */
function changedCell(record: ReconcileRecord): Html {
  const { applied, planned } = record.result;
  if (applied.length === 0)
    return html`<span class="muted"
      >${planned === 0 ? 'nothing to change' : `nothing applied of ${planned} planned`}</span
    >`;
  return html`${applied.length} of ${planned}:
  ${applied.slice(0, 8).map((op, i) => html`${i === 0 ? '' : ', '}${op.action} <code>${op.key}</code>`)}${applied.length > 8 ? ` and ${applied.length - 8} more` : ''}`;
}

function failureCell(record: ReconcileRecord): Html {
  const { result } = record;
  const drift = result.drift?.length ?? 0;
  const driftNote = drift === 0 ? '' : html`<div>drift: ${counted(drift, 'object', 'objects')}</div>`;
  if (result.status === 'success') return html`${driftNote}`;
  const details = result.details ?? [];
  return html`${driftNote}
    <div>${result.reason ?? ''}</div>
    ${
      details.length === 0
        ? ''
        : lines([...details.slice(0, 5), ...(details.length > 5 ? [`… ${details.length - 5} more`] : [])])
    }`;
}

function reconcilesSection(recent: readonly ReconcileRecord[]): Html {
  return html`<section id="reconciles" aria-labelledby="reconciles-h">
    <h2 id="reconciles-h">Last reconciles</h2>
    ${
      recent.length === 0
        ? html`<p class="muted">No reconcile has finished yet.</p>`
        : html`<table>
            <thead>
              <tr>
                <th>Finished</th>
                <th>Trigger</th>
                <th>Status</th>
                <th>Duration</th>
                <th>Changed</th>
                <th>Failures and drift</th>
              </tr>
            </thead>
            <tbody>
              ${recent.map(
                (r) =>
                  html`<tr data-reconcile="${r.id}">
                    <td data-label="Finished">
                      ${new Date(r.startedAt.getTime() + r.durationMs).toISOString()}
                    </td>
                    <td data-label="Trigger">${r.trigger}</td>
                    <td data-label="Status">
                      <span class="state ${statusClass(r.result.status)}">${r.result.status}</span>
                    </td>
                    <td data-label="Duration">${formatDuration(r.durationMs)}</td>
                    <td data-label="Changed">${changedCell(r)}</td>
                    <td data-label="Failures and drift">${failureCell(r)}</td>
                  </tr> `,
              )}
            </tbody>
          </table>`
    }
  </section>`;
}

function diffCell(object: ObjectState): Html {
  return html`${object.note === undefined ? '' : html`<div>${object.note}</div>`}${
    object.diff.length === 0
      ? ''
      : lines(object.diff.map((d) => `${d.field}: ${shownValue(d.live)} → ${shownValue(d.desired)}`))
  }`;
}

function objectsSection(planned: StatusView['planned']): Html {
  if (planned === undefined)
    return html`<section id="objects" aria-labelledby="objects-h">
      <h2 id="objects-h">Managed objects</h2>
      <p class="muted">No reconcile has planned yet.</p>
    </section>`;
  const counts = new Map<ObjectStateName, number>();
  for (const o of planned.objects) counts.set(o.state, (counts.get(o.state) ?? 0) + 1);
  return html`<section id="objects" aria-labelledby="objects-h">
    <h2 id="objects-h">Managed objects (${planned.objects.length})</h2>
    <p class="muted">
      As reconcile <code>${planned.reconcile}</code> found them at ${planned.at}; a diff reads live → desired.
    </p>
    <ul class="counts">
      ${[...counts].map(([state, n]) => html`<li><span class="state ${stateClass[state]}">${state}</span> ${n}</li>`)}
    </ul>
    <table>
      <thead>
        <tr>
          <th>Kind</th>
          <th>Key</th>
          <th>State</th>
          <th>Diff</th>
        </tr>
      </thead>
      <tbody>
        ${planned.objects.map(
          (o) =>
            html`<tr data-key="${o.key}" data-state="${o.state}">
              <td data-label="Kind">${o.kind}</td>
              <td data-label="Key"><code>${o.key}</code></td>
              <td data-label="State"><span class="state ${stateClass[o.state]}">${o.state}</span></td>
              <td data-label="Diff">${diffCell(o)}</td>
            </tr> `,
        )}
      </tbody>
    </table>
  </section>`;
}

/** The plan's operations in the order the applier runs them, each with the ones it waits for. */
function changeSection(plan: PlanView | undefined): Html {
  const changes = plan?.changes ?? [];
  return html`<section id="change" aria-labelledby="change-h">
    <h2 id="change-h">Change of the last plan</h2>
    ${
      plan === undefined
        ? html`<p class="muted">No reconcile has planned yet.</p>`
        : changes.length === 0
          ? html`<p class="muted">The last plan changed nothing: the account equalled the config.</p>`
          : html`<ol class="change">
              ${changes.map(
                (c) =>
                  html`<li>
                    <strong>${c.action}</strong> ${c.kind}
                    <code>${c.key}</code
                    >${c.after.length === 0 ? '' : html` <span class="muted">after ${c.after.join(', ')}</span>`}
                  </li>`,
              )}
            </ol>`
    }
  </section>`;
}

export function renderStatusPage(view: StatusView, nonce: string): string {
  const { status } = view;
  const title = `acctsync watch${status.scope === undefined ? '' : `: ${status.scope}`}`;
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content="no-referrer" />
        <title>${title}</title>
        <noscript><meta http-equiv="refresh" content="${reloadSeconds}" /></noscript>
        <style nonce="${nonce}">
          ${new Html(style)}
        </style>
      </head>
      <body>
        <main data-version="${versionOf(status)}">
          <h1>${title}</h1>
          <p class="muted">
            Read-only. Rendered at ${new Date().toISOString()}; it follows the daemon by itself.
          </p>
          ${daemonSection(status)} ${reconcilesSection(view.recent)} ${objectsSection(view.planned)}
          ${changeSection(view.planned?.plan)}
        </main>
        <script nonce="${nonce}">
          ${new Html(script)};
        </script>
      </body>
    </html> `.text;
}
