import { html as h } from 'ghtml';
import type { PageFrame } from '../models/frame.js';
import type { MarginsView, UnknownCostView } from '../models/margins.js';
import { layout, table } from './layout.js';
import { partnerLink } from './listing.js';

const GROUPS = ['day', 'kind', 'operator', 'package', 'provider', 'partner'] as const;

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

/** The period's date pickers (days in UTC, both included); `by` kept when given. */
function periodForm(action: string, view: { fromDay: string; toDay: string }, extra = ''): string {
  return h`<form method="get" action="${action}" class="search">
<label>From <input type="date" name="from" value="${view.fromDay}" required aria-label="from (first day, UTC)"></label>
<label>To <input type="date" name="to" value="${view.toDay}" required aria-label="to (last day, UTC)"></label>
!${extra}<button type="submit">Show</button>
</form>`;
}

export function marginsPage(frame: PageFrame, view: MarginsView): string {
  const unknown = (l: { costUnknown: number; costUnknownSales: string }) => (l.costUnknownSales === '' ? '' : `${l.costUnknown} (${l.costUnknownSales})`);
  const rows = view.lines.map(
    (l) =>
      h`<tr class="${l.negative ? 'bad' : ''}"><td>!${l.partner ? partnerLink(l.partner) : h`${l.group}`}</td><td>${l.sales}</td><td>${l.refunds}</td><td>${l.cost}</td><td>${l.margin}</td><td>${l.deliveries}</td><td>${unknown(l)}</td></tr>`,
  );
  const t = view.total;
  const total =
    rows.length === 0
      ? ''
      : h`<tr id="margins-total"><th>total</th><th>${t.sales}</th><th>${t.refunds}</th><th>${t.cost}</th><th>${t.margin}</th><th>${t.deliveries}</th><th>${unknown(t)}</th></tr>`;
  const options = GROUPS.map((g) => h`<option value="${g}"!${g === view.by ? ' selected' : ''}>${g}</option>`).join('');
  const unknownNote =
    t.costUnknownSales === ''
      ? ''
      : h`<p id="margins-unknown" class="notice">${t.costUnknown} deliveries (sales GHS ${t.costUnknownSales}) have no known cost: they are left out of the margin, not counted as free. <a href="${view.unknownCostHref}">See them</a>.</p>`;
  return layout(
    frame,
    h`!${periodForm('/console/reports/margins', view, h`<label>By <select name="by">!${options}</select></label>
`)}
<p><a href="${view.csvHref}" id="margins-csv" hx-boost="false" download>CSV</a> · <a href="${view.unknownCostHref}" id="margins-unknown-link">Sales of unknown cost</a></p>
<p>Sales: what partners paid for live data deliveries and result-checker sales, net of refunds (a reversal or refund is a negative sale on its own day; the cost stays on the day of the sale, the upstream delivered). Cost: what the upstream charged, or the credential cost. Margin: sales of known cost less their cost. Test mode never counts. Amounts in GHS.</p>
!${unknownNote}
!${chart(view)}
<section id="margins">!${table([view.by, 'sales', 'refunds', 'cost', 'margin', 'deliveries', 'cost unknown: deliveries (sales)'], [...rows, total].filter((r) => r !== ''), 'No live sale or refund in this period.')}</section>`,
  );
}

export function unknownCostPage(frame: PageFrame, view: UnknownCostView): string {
  const rows = view.rows.map(
    (r) =>
      h`<tr><td>${r.completedAt}</td><td><a href="${r.orderHref}">${r.reference}</a></td><td>${r.kind}</td><td>!${partnerLink(r.partner)}</td><td>${r.msisdn}</td><td>${r.packageId}</td><td>${r.provider}</td><td>${r.amount}</td></tr>`,
  );
  const more = view.rows.length >= view.max ? h`<p>The newest ${view.max} are shown: choose a shorter period to see the others.</p>` : '';
  return layout(
    frame,
    h`<p><a href="${view.marginsHref}">Back to the margins</a></p>
!${periodForm('/console/reports/margins/unknown-cost', view)}
<p>Live sales of the period whose cost is not known: the upstream did not say and the route has no cost, or the credential was loaded without one. The margin report counts them apart. A reconciliation run fills a cost in when the upstream's own records give one; a cost on the route gives one to the deliveries that follow.</p>
<section id="unknown-cost">!${table(['delivered', 'order', 'kind', 'partner', 'number', 'package', 'upstream', 'sale'], rows, 'Every sale of this period has a known cost.')}</section>
!${rows.length === 0 ? '' : h`<p id="unknown-cost-total">${view.rows.length} sales, GHS ${view.total}.</p>`}
!${more}`,
  );
}
