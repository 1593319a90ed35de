import { html as h } from 'ghtml';
import type { PageFrame } from '../models/frame.js';
import type { FindingLine, ReconciliationView, Side } from '../models/reconciliation.js';
import { csrfField, layout, table } from './layout.js';

function sideList(s: Side): string {
  if (s.length === 0) return h`<span class="empty">none</span>`;
  return h`<dl class="side">!${s.map(([k, v]) => h`<dt>${k}</dt><dd>${v}</dd>`).join('')}</dl>`;
}

export function reconciliationPage(frame: PageFrame, view: ReconciliationView): string {
  const csrf = csrfField(frame.csrfToken);
  const runRows = view.runs.map(
    (r) =>
      h`<tr id="run-${r.provider}" class="${r.status === 'failed' ? 'bad' : ''}"><td>${r.provider}</td><td>${r.window}</td><td>${r.trigger}</td><td>${r.status}</td><td>${r.counts}</td><td>${r.finished}</td><td>${r.error}</td></tr>`,
  );
  const resolveForm = (f: FindingLine) =>
    view.canResolve && !f.resolved
      ? h`<form method="post" action="/console/reconciliation/findings/${f.id}/resolve" class="inline">!${csrf}<input name="note" required maxlength="500" placeholder="what was done (reversal, resolve, upstream's answer)" aria-label="resolution note for ${f.reference}"><button type="submit">Resolved</button></form>`
      : f.resolved
        ? h`${f.resolution}`
        : 'open';
  const findingRows = view.findings.map(
    (f) =>
      h`<tr id="finding-${f.id}" class="${f.resolved ? '' : 'bad'}"><td>${f.kind}</td><td>${f.provider}</td><td>!${f.orderId === null ? h`${f.shortReference}` : h`<a href="/console/orders/${f.orderId}">${f.shortReference}</a>`}</td><td>${f.reference}</td><td>${f.transactionId}</td><td>!${sideList(f.ours)}</td><td>!${sideList(f.theirs)}</td><td>${f.found}</td><td>!${resolveForm(f)}</td></tr>`,
  );
  const runForm = view.canRun
    ? h`<section><h2>Run a reconciliation</h2><p>A worker runs it shortly (off the request path); its result appears above.</p>
<form method="post" action="/console/reconciliation/run">!${csrf}
<label>Upstream <select name="provider">!${view.upstreams.map((u) => h`<option value="${u}">${u}</option>`).join('')}</select></label>
<label>From <input name="from" required value="${view.defaultFrom}" maxlength="40" aria-label="from (ISO 8601)"></label>
<label>To <input name="to" required value="${view.defaultTo}" maxlength="40" aria-label="to (ISO 8601)"></label>
<button type="submit">Run</button></form></section>`
    : '';
  return layout(
    frame,
    h`<section><h2>Latest run of each upstream</h2>!${table(['upstream', 'window', 'trigger', 'status', 'checked', 'finished', 'error'], runRows, 'No run yet: the worker runs one each day for the day before.')}</section>
!${runForm}
<section id="findings"><h2>Findings (${view.unresolved} unresolved)</h2><p>Reconciliation never moves money: settle a finding with the order's reversal or the delivery's resolve, then mark it resolved with a note.</p>!${table(['kind', 'upstream', 'order', 'our reference', 'upstream transaction', 'ours', 'theirs', 'found', ''], findingRows, 'Nothing found: every upstream agrees with our records.')}</section>`,
  );
}
