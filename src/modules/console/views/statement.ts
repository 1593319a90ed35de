import { html as h } from 'ghtml';
import type { PageFrame } from '../models/frame.js';
import type { StatementLineView, StatementView } from '../models/statement.js';
import { head, layout, table } from './layout.js';

const lineRow = (l: StatementLineView) =>
  h`<tr><td>${l.id}</td><td>${l.at}</td><td>${l.kind}</td><td>${l.memo}</td><td>!${
    l.source.href ? h`<a href="${l.source.href}">${l.source.label}</a>` : h`${l.source.label}`
  }</td><td class="num">${l.change}</td><td class="num">${l.heldChange}</td><td class="num">${l.availableAfter}</td><td class="num">${l.heldAfter}</td></tr>`;

const HEADERS = ['entry', 'date (UTC)', 'kind', 'description', 'for', 'available', 'held', 'available after', 'held after'];

function summary(s: StatementView): string {
  return h`<dl class="facts statement-totals"><dt>Partner</dt><dd>${s.name} (${s.profileId})</dd><dt>Wallet</dt><dd>${s.mode}</dd><dt>Period</dt><dd>${s.from || 'first entry'} to ${s.to || 'now'}${s.kind ? `, ${s.kind} only` : ''}</dd><dt>Opening available</dt><dd id="opening">${s.opening}</dd><dt>Credits</dt><dd id="credits">${s.credits}</dd><dt>Debits</dt><dd id="debits">${s.debits}</dd><dt>Closing available</dt><dd id="closing">${s.closing}</dd><dt>Held (opening → closing)</dt><dd id="held">${s.openingHeld} → ${s.closingHeld}</dd><dt>Entries</dt><dd id="entries">${s.entries}</dd></dl>`;
}

export function statementPage(frame: PageFrame, s: StatementView): string {
  const base = `/console/partners/${s.profileId}/statement`;
  const kinds = ['', ...s.kinds].map(
    (k) => h`<option value="${k}"!${k === s.kind ? ' selected' : ''}>${k === '' ? 'every kind' : k}</option>`,
  );
  const modes = ['live', 'test'].map((m) => h`<option value="${m}"!${m === s.mode ? ' selected' : ''}>${m}</option>`);
  const filter = h`<form method="get" action="${base}" class="filters"><label>Wallet <select name="mode">!${modes.join('')}</select></label><label>From <input type="date" name="from" value="${s.from}"></label><label>To <input type="date" name="to" value="${s.to}"></label><label>Kind <select name="kind">!${kinds.join('')}</select></label><button type="submit">Show</button></form>`;
  const exports = h`<p><a href="${base}.csv?${s.query}" hx-boost="false" download>Export CSV</a> · <a href="${base}/print?${s.query}" hx-boost="false">Printable statement</a> · <a href="/console/partners/${s.profileId}">Back to the partner</a></p>`;
  const pages = h`<p class="pager">!${s.nextHref ? h`<a href="${s.nextHref}" rel="next">Next page</a> · ` : ''}<a href="${base}?${s.query}">First page</a></p>`;
  return layout(frame, h`!${filter}!${summary(s)}!${exports}!${table(HEADERS, s.lines.map(lineRow), 'No entry in this period.')}!${pages}`);
}

/** A page to print or save as PDF and send to the partner: the whole period, no navigation. */
export function statementPrintPage(s: StatementView, generatedAt: string): string {
  return h`!${head(`Statement ${s.name}`)}
<body class="print">
<main>
<h1>Wallet statement</h1>
!${summary(s)}
!${table(HEADERS, s.lines.map(lineRow), 'No entry in this period.')}
<p class="muted">Amounts in GHS. Generated ${generatedAt} UTC.</p>
</main>
</body>
</html>`;
}
