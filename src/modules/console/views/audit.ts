import { html as h } from 'ghtml';
import type { AuditView } from '../models/audit.js';
import type { PageFrame } from '../models/frame.js';
import { layout, table } from './layout.js';
import { partnerLink } from './listing.js';

export function auditPage(frame: PageFrame, view: AuditView): string {
  const rows = view.lines.map(
    (e) =>
      h`<tr class="${e.outcome}"><td>${e.id}</td><td>${e.at}</td><td>${e.actor}</td><td>${e.address}</td><td>${e.action}</td><td>${e.record}</td><td>!${e.partner ? partnerLink(e.partner) : ''}</td><td>${e.outcome}</td><td>${e.detail}</td></tr>`,
  );
  const older = view.older ? h`<p><a href="${view.older}">Older</a></p>` : '';
  return layout(
    frame,
    h`<form method="get" action="/console/audit" class="search"><label>Action <input name="action" value="${view.filter.action}" placeholder="e.g. topup.approve"></label><button type="submit">Filter</button></form>
!${table(['#', 'when', 'who', 'from', 'action', 'record', 'partner', 'outcome', 'detail'], rows, 'Nothing recorded.')}!${older}`,
  );
}
