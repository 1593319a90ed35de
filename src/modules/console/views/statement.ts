import { html as h } from 'ghtml';
import type { PageFrame } from '../models/frame.js';
import { LINE_TYPE_LABELS, type StatementLineView, type StatementView } from '../models/statement.js';
import { head, layout, table } from './layout.js';

const lineRow = (l: StatementLineView) =>
  h`<tr><td>${l.at}</td><td>${l.type}</td><td>!${
    l.reference.href ? h`<a href="${l.reference.href}">${l.reference.label}</a>` : h`${l.reference.label}`
  }</td><td>${l.number}</td><td>${l.packageName}</td><td>${l.description}</td><td class="num">${l.debit}</td><td class="num">${l.credit}</td><td class="num">${l.balance}</td></tr>`;

const HEADERS = ['date (UTC)', 'type', 'reference', 'number', 'package or product', 'description', 'charge', 'refund or credit', 'balance'];

/** The totals reconcile on screen: opening + credits − debits (+ the lines a type filter hides) = closing. */
function summary(s: StatementView): string {
  const label = s.type ? LINE_TYPE_LABELS[s.type] ?? s.type : '';
  const others =
    s.others === null
      ? ''
      : h`<dt>Other lines, not shown (net)</dt><dd id="others">${s.others}</dd>`;
  const sum =
    s.others === null
      ? `${s.opening} + ${s.credits} − ${s.debits} = ${s.closing}`
      : `${s.opening} + ${s.credits} − ${s.debits} ${s.others.startsWith('−') ? `− ${s.others.slice(1)}` : `+ ${s.others.replace(/^\+/, '')}`} (not shown) = ${s.closing}`;
  return h`<dl class="facts statement-totals"><dt>Partner</dt><dd>${s.name} (${s.profileId})</dd><dt>Wallet</dt><dd>${s.mode}</dd><dt>Period</dt><dd>${s.from || 'first entry'} to ${s.to || 'now'}${label ? `, ${label} only` : ''}</dd><dt>Opening balance</dt><dd id="opening">${s.opening}</dd><dt>Credits${label ? ` (${label})` : ''}</dt><dd id="credits">${s.credits}</dd><dt>Debits${label ? ` (${label})` : ''}</dt><dd id="debits">${s.debits}</dd>!${others}<dt>Closing balance</dt><dd id="closing">${s.closing}</dd><dt>Check</dt><dd id="reconcile">${sum}</dd><dt>Held for orders in delivery (opening → closing)</dt><dd id="held">${s.openingHeld} → ${s.closingHeld}</dd></dl>`;
}

const NOTE = h`<p class="muted">One line per order charged, refund, top-up or adjustment; the balance is the available balance after each line. Money held for an order in delivery leaves the balance with its charge and comes back with its refund if it is not delivered.</p>`;

export function statementPage(frame: PageFrame, s: StatementView): string {
  const base = `/console/partners/${s.profileId}/statement`;
  const types = ['', ...s.types].map(
    (k) => h`<option value="${k}"!${k === s.type ? ' selected' : ''}>${k === '' ? 'every line' : LINE_TYPE_LABELS[k] ?? k}</option>`,
  );
  const modes = ['live', 'test'].map((m) => h`<option value="${m}"!${m === s.mode ? ' selected' : ''}>${m}</option>`);
  const filter = h`<form method="get" action="${base}" class="filters"><label>Wallet <select name="mode">!${modes.join('')}</select></label><label>From <input type="date" name="from" value="${s.from}"></label><label>To <input type="date" name="to" value="${s.to}"></label><label>Lines <select name="kind">!${types.join('')}</select></label><button type="submit">Show</button></form>`;
  const exports = h`<p><a href="${base}.csv?${s.query}" hx-boost="false" download>Export CSV</a> · <a href="${base}/print?${s.query}" hx-boost="false">Printable statement</a> · <a href="/console/partners/${s.profileId}">Back to the partner</a></p>`;
  const pages = h`<p class="pager">!${s.nextHref ? h`<a href="${s.nextHref}" rel="next">Next page</a> · ` : ''}<a href="${base}?${s.query}">First page</a></p>`;
  return layout(frame, h`!${filter}!${summary(s)}!${NOTE}!${exports}!${table(HEADERS, s.lines.map(lineRow), 'No line in this period.')}!${pages}`);
}

/** A page to print or save as PDF and send to the partner: the whole period, no navigation. */
export function statementPrintPage(s: StatementView, generatedAt: string): string {
  return h`!${head(`Statement ${s.name}`)}
<body class="print">
<main>
<h1>Wallet statement</h1>
!${summary(s)}
!${NOTE}
!${table(HEADERS, s.lines.map(lineRow), 'No line in this period.')}
<p class="muted">Amounts in GHS. Generated ${generatedAt} UTC.</p>
</main>
</body>
</html>`;
}
