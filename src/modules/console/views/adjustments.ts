import { html as h } from 'ghtml';
import type { AdjustmentLine, AdjustmentsView } from '../models/adjustments.js';
import type { PageFrame } from '../models/frame.js';
import { csrfField, layout, table } from './layout.js';
import { modeSwitchBar, partnerLink } from './listing.js';

export function adjustmentsPage(frame: PageFrame, v: AdjustmentsView): string {
  const csrf = csrfField(frame.csrfToken);
  const actions = (a: AdjustmentLine) =>
    (a.canApprove
      ? h`<form method="post" action="/console/adjustments/${a.id}/approve" class="inline" hx-confirm="Approve ${a.direction} of ${a.amount} on ${a.partner.name} (${a.mode})?">!${csrf}<button type="submit">Approve</button></form>`
      : '') +
    (a.canReject
      ? h`<form method="post" action="/console/adjustments/${a.id}/reject" class="inline">!${csrf}<input name="reason" required maxlength="300" placeholder="why not"><button type="submit">Reject</button></form>`
      : '');
  const row = (a: AdjustmentLine, decided: boolean) =>
    h`<tr id="${a.id}"><td>${a.id}</td><td>!${partnerLink(a.partner)}</td><td>${a.mode}</td><td>${a.direction}</td><td class="num">${a.amount}</td><td>${a.reason}</td><td>${a.requestedBy}</td><td>${a.requestedAt}</td><td class="status">${a.status}</td><td>!${
      decided ? h`${a.status} by ${a.decidedBy} ${a.decidedAt}${a.decisionReason ? `: ${a.decisionReason}` : ''}` : actions(a)
    }</td></tr>`;
  const headers = ['adjustment', 'partner', 'wallet', 'direction', 'amount', 'reason', 'requested by', 'requested', 'status'];
  return layout(
    frame,
    h`!${modeSwitchBar(v.modes)}<p>An adjustment waits for a second admin (not its requester, nor an account it created or last reset) when, with what its admin or the wallet moved alone in the last 24 hours, it is above ${v.approvalAbove}; the money moves at approval.</p>
<section><h2>Waiting for approval</h2>!${table([...headers, ''], v.pending.map((a) => row(a, false)), 'Nothing waits for approval.')}</section>
<section><h2>Decided</h2>!${table([...headers, 'decided'], v.decided.map((a) => row(a, true)), 'No adjustment yet.')}</section>`,
  );
}
