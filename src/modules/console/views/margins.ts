import { html as h } from 'ghtml';
import type { PageFrame } from '../models/frame.js';
import type { MarginsView } from '../models/margins.js';
import { layout, table } from './layout.js';
import { partnerLink } from './listing.js';

const GROUPS = ['day', 'operator', 'package', 'provider', 'partner'] as const;

/** The chart, drawn here (no script, no library: the CSP allows neither inline nor foreign code). */
function chart(view: MarginsView): string {
  const c = view.chart;
  if (c.shown === 0) return '';
  const bars = c.bars
    .map(
      (b) =>
        h`<g><rect class="sales" x="${b.x}" y="${b.sales.y}" width="${c.barWidth}" height="${b.sales.height}"><title>${b.label} sales</title></rect><rect class="cost" x="${b.x + c.barWidth}" y="${b.cost.y}" width="${c.barWidth}" height="${b.cost.height}"><title>${b.label} cost</title></rect><rect class="margin" x="${b.x + 2 * c.barWidth}" y="${b.margin.y}" width="${c.barWidth}" height="${b.margin.height}"><title>${b.label} margin</title></rect><text x="${b.x}" y="${c.height - 14}">${b.label}</text></g>`,
    )
    .join('');
  return h`<figure><svg class="chart" id="margins-chart" role="img" aria-label="sales, cost and margin by ${view.by}" viewBox="0 0 ${c.width} ${c.height}" width="${c.width}" height="${c.height}" xmlns="http://www.w3.org/2000/svg"><text x="4" y="12">GHS ${c.top}</text>!${bars}</svg><figcaption><span class="sales">■</span> sales <span class="cost">■</span> cost <span class="margin">■</span> margin (first ${c.shown} groups of the table)</figcaption></figure>`;
}

export function marginsPage(frame: PageFrame, view: MarginsView): string {
  const rows = view.lines.map(
    (l) =>
      h`<tr class="${l.negative ? 'bad' : ''}"><td>!${l.partner ? partnerLink(l.partner) : h`${l.group}`}</td><td>${l.sales}</td><td>${l.cost}</td><td>${l.margin}</td><td>${l.deliveries}</td><td>${l.costUnknown > 0 ? String(l.costUnknown) : ''}</td></tr>`,
  );
  const t = view.total;
  const total = rows.length === 0 ? '' : h`<tr id="margins-total"><th>total</th><th>${t.sales}</th><th>${t.cost}</th><th>${t.margin}</th><th>${t.deliveries}</th><th>${t.costUnknown > 0 ? String(t.costUnknown) : ''}</th></tr>`;
  const options = GROUPS.map((g) => h`<option value="${g}"!${g === view.by ? ' selected' : ''}>${g}</option>`).join('');
  return layout(
    frame,
    h`<form method="get" action="/console/reports/margins" class="search">
<label>From <input name="from" value="${view.from}" maxlength="40" aria-label="from (ISO 8601)"></label>
<label>To <input name="to" value="${view.to}" maxlength="40" aria-label="to (ISO 8601)"></label>
<label>By <select name="by">!${options}</select></label>
<button type="submit">Show</button> <a href="${view.csvHref}" id="margins-csv" hx-boost="false" download>CSV</a>
</form>
<p>Sales: what partners paid for completed live deliveries (test mode never counts; reversed orders are not sales). Cost: what the upstream charged, in GHS. Amounts in GHS.</p>
!${chart(view)}
<section id="margins">!${table([view.by, 'sales', 'cost', 'margin', 'deliveries', 'without a known cost'], [...rows, total].filter((r) => r !== ''), 'No completed live delivery in this period.')}</section>`,
  );
}
