import { html as h } from 'ghtml';
import type { PageFrame } from '../models/frame.js';
import type { InventoryView } from '../models/inventory.js';
import { csrfField, layout, table } from './layout.js';

export function inventoryPage(frame: PageFrame, view: InventoryView): string {
  const rows = view.stock.map(
    (l) =>
      h`<tr class="${l.low ? 'low' : ''}"><td>${l.packageId}</td><td>${l.code}</td><td>${l.name}</td><td>${l.status}</td><td class="stock" data-package="${l.packageId}">${l.stock}</td><td>${l.low ? 'LOW' : 'ok'}</td><td class="voided" data-package="${l.packageId}">${l.voided}</td></tr>`,
  );
  const voided = view.voided.map(
    (v) =>
      h`<tr data-credential="${v.credentialId}"><td>${v.credentialId}</td><td>${v.packageId}</td><td><a href="/console/orders/${v.orderId}">${v.shortReference}</a></td><td>${v.profileId}</td><td>${v.at}</td><td>${v.reason}</td></tr>`,
  );
  const options = view.stock.map((l) => h`<option value="${l.packageId}">${l.packageId} · ${l.name}</option>`).join('');
  const load = view.canLoad
    ? h`<section><h2>Load PINs</h2>
<p>A CSV with the header <code>username,password</code> and one credential a line. Duplicates are skipped and counted; a bad line rejects the whole file, naming the line. The credentials are encrypted at rest and never shown.</p>
<form method="post" action="/console/inventory/upload" enctype="multipart/form-data">
  !${csrfField(frame.csrfToken)}
  <label>Package <select name="packageId" required>!${options}</select></label>
  <label>CSV file <input type="file" name="file" accept=".csv,text/csv" required></label>
  <button type="submit">Upload</button>
</form></section>`
    : '';
  return layout(
    frame,
    h`<section>!${table(['package', 'code', 'name', 'status', 'in stock', '', 'voided'], rows, 'No result-checker package.')}</section>
<section><h2>Voided credentials</h2><p>Credentials of sales refunded by staff: they stay with their sale, are never sold again and are not stock.</p>!${table(['credential', 'package', 'sale', 'profile', 'voided', 'reason'], voided, 'No credential voided.')}</section>!${load}`,
  );
}
