import { html as h } from 'ghtml';
import type { PageFrame } from '../models/frame.js';
import type { TopUpLine, TopUpsView } from '../models/top-ups.js';
import { csrfField, layout, table } from './layout.js';

export function topUpsPage(frame: PageFrame, view: TopUpsView): string {
  const csrf = csrfField(frame.csrfToken);
  const decide = (t: TopUpLine) =>
    view.canDecide
      ? h`<form method="post" action="/console/top-ups/${t.id}/approve" class="inline" hx-confirm="Approve ${t.amount} for ${t.profileId}?">!${csrf}<button type="submit">Approve</button></form>
<form method="post" action="/console/top-ups/${t.id}/reject" class="inline">!${csrf}<input name="reason" required maxlength="500" placeholder="reason" aria-label="rejection reason"><button type="submit">Reject</button></form>`
      : 'pending';
  const pending = view.pending.map(
    (t) =>
      h`<tr id="topup-${t.id}"><td>${t.id}</td><td>${t.requestedAt}</td><td>${t.profileId}</td><td>${t.mode}</td><td>${t.amount}</td><td>${t.method}</td><td>${t.reference}</td><td>${t.note}</td><td>!${decide(t)}</td></tr>`,
  );
  const decided = view.decided.map(
    (t) =>
      h`<tr><td>${t.id}</td><td>${t.requestedAt}</td><td>${t.profileId}</td><td>${t.mode}</td><td>${t.amount}</td><td>${t.method}</td><td>${t.reference}</td><td>${t.decision}</td><td>${t.decided}</td></tr>`,
  );
  return layout(
    frame,
    h`<section><h2>Pending (${view.pending.length})</h2>!${table(['id', 'requested', 'profile', 'mode', 'amount', 'method', 'reference', 'note', ''], pending, 'No top-up is waiting.')}</section>
<section><h2>Decided</h2>!${table(['id', 'requested', 'profile', 'mode', 'amount', 'method', 'reference', 'decision', 'when'], decided, 'None yet.')}</section>`,
  );
}
