import { html as h } from 'ghtml';
import type { PageFrame } from '../models/frame.js';
import type { PackageFlagsView, PackagesView, PackageView, RouteRow } from '../models/packages.js';
import { csrfField, layout, table } from './layout.js';

function operatorsSection(frame: PageFrame, view: PackagesView): string {
  const rows = view.operators.map((o) => {
    const network = view.canEditNetworks
      ? h`<form method="post" action="/console/operators/${o.id}/network" class="inline">!${csrfField(frame.csrfToken)}<select name="network" aria-label="Network of ${o.id}">!${options(view.networks, o.network, '— none (not checked) —')}</select> <button type="submit">Save</button></form>`
      : h`${o.network === '' ? 'none (not checked)' : o.network}`;
    return h`<tr id="operator-${o.id}"><td>${o.id}</td><td>${o.name}</td><td>${o.status}</td><td class="network">!${network}</td></tr>`;
  });
  return h`<section><h2>Operators</h2>
<p>An operator's network is what its bundles are for: a purchase for a number of another network by its prefix is refused (400) unless it sends allowPortedNumber. An operator without one is not checked.</p>
!${table(['operator', 'name', 'status', 'network'], rows, 'No operator: import a seed file.')}</section>`;
}

export function packagesPage(frame: PageFrame, view: PackagesView): string {
  const rows = view.packages.map(
    (p) =>
      h`<tr id="package-${p.id}"><td><a href="/console/packages/${p.id}">${p.id}</a></td><td>${p.label}</td><td>${p.operator}</td><td>${p.product}</td><td class="price">${p.price}</td><td>${p.rolePrices}</td><td>${p.status}${p.sellable ? '' : ' (not sold)'}</td><td class="routes">${p.routes}!${p.unrouted ? h`<br><span class="bad">${p.unrouted}</span>` : ''}</td></tr>`,
  );
  return layout(
    frame,
    h`<p>Upstreams enabled here: <strong id="enabled-upstreams">${view.enabled}</strong>. ${view.rule}</p>
!${operatorsSection(frame, view)}
<section><h2>Packages</h2>!${table(['package', 'label', 'operator', 'product', 'price', 'role prices', 'status', 'routes'], rows, 'No data package: import a seed file.')}</section>`,
  );
}

/** The second confirmation a save below cost needs (docs/console.md, "Pages"). */
const belowCostBox = (form: string) =>
  h`<label class="confirm"><input type="checkbox" name="belowCost" value="yes" id="below-cost-${form}"> I know this sells below cost</label>`;

/** The dashboard's flags on data packages: below cost, routes refused on their last orders. */
export function packageFlagsSection(f: PackageFlagsView): string {
  const below =
    f.belowCost.length === 0
      ? ''
      : h`<section id="below-cost-packages"><h2>Selling below cost: ${f.belowCost.length}</h2><p>Some role buys these active packages for less than a route costs. Raise the price or fix the route.</p>!${table(
          ['package', 'below cost'],
          f.belowCost.map((b) => h`<tr class="bad"><td><a href="/console/packages/${b.packageId}">${b.packageId}</a></td><td>${b.what}</td></tr>`),
          'None.',
        )}</section>`;
  const refused =
    f.refused.length === 0
      ? ''
      : h`<section id="refused-routes"><h2>Routes refused on their last ${f.refusalsFlagged} orders: ${f.refused.length}</h2><p>The upstream refused each of these routes' last orders (a route problem): check the product and the float, or change the route.</p>!${table(
          ['package', 'route', 'since', 'last answer'],
          f.refused.map((r) => h`<tr class="bad"><td><a href="/console/packages/${r.packageId}">${r.packageId}</a></td><td>${r.route}</td><td>${r.since}</td><td>${r.lastAnswer}</td></tr>`),
          'None.',
        )}</section>`;
  return below + refused;
}

const options = (values: readonly string[], current: string, empty?: string) =>
  (empty === undefined ? '' : h`<option value=""!${current === '' ? ' selected' : ''}>${empty}</option>`) +
  values.map((v) => h`<option value="${v}"!${v === current ? ' selected' : ''}>${v}</option>`).join('');

function routeRowInputs(row: RouteRow, providers: readonly string[]): string {
  const input = (field: keyof RouteRow, label: string, attributes = '') =>
    h`<td><input name="r${row.number - 1}_${field}" value="${String(row[field])}" aria-label="Route ${row.number} ${label}"!${attributes}></td>`;
  return h`<tr>!${input('order', 'order', ' inputmode="numeric" size="2"')}<td><select name="r${row.number - 1}_provider" aria-label="Route ${row.number} provider">!${options(providers, row.provider, '— none —')}</select></td>!${input('serviceId', 'serviceId')}!${input('bundle', 'bundle', ' size="10"')}!${input('amount', 'amount', ' inputmode="decimal" size="8"')}!${input('operatorId', 'operatorId', ' inputmode="numeric" size="8"')}!${input('productId', 'productId', ' inputmode="numeric" size="8"')}!${input('cost', 'cost', ' inputmode="decimal" size="8"')}</tr>`;
}

export function packagePage(frame: PageFrame, p: PackageView): string {
  const csrf = csrfField(frame.csrfToken);
  const facts = h`<dl class="facts"><dt>Package</dt><dd>${p.id}</dd><dt>Label</dt><dd>${p.label}</dd><dt>Operator</dt><dd>${p.operator}</dd><dt>Product</dt><dd>${p.product}</dd><dt>Data</dt><dd>${p.dataAmount}, ${p.validity} days</dd><dt>Status</dt><dd class="status">${p.status}${p.sellable ? ' (sold now)' : ' (not sold now)'}</dd></dl>`;

  const roleFacts = p.rolePrices.map((r) => h`<dt>${r.role} price</dt><dd>${r.value === '' ? 'the package price' : `GHS ${r.value}`}</dd>`).join('');
  const pricing = p.canEdit
    ? h`<form method="post" action="/console/packages/${p.id}" class="stacked">!${csrf}
<label>Price (GHS) <input name="price" value="${p.price}" inputmode="decimal" required></label>
!${p.rolePrices.map((r) => h`<label>${r.role} price (GHS; empty: the package price) <input name="price_${r.role}" value="${r.value}" inputmode="decimal"></label>`).join('')}
<label>Status <select name="status">!${options(p.statuses, p.status)}</select></label>
!${belowCostBox('price')}
<button type="submit">Save price and status</button></form>`
    : h`<dl class="facts"><dt>Price</dt><dd>GHS ${p.price}</dd>!${roleFacts}</dl>`;

  const routeRows = p.routes.map(
    (r) =>
      h`<tr id="route-${r.position}"><td>${r.position}</td><td>${r.provider}</td><td>${r.product}</td><td>${r.amount}</td><td>${r.cost}</td><td class="upstream ${r.enabled ? 'ok' : 'bad'}">${r.upstream}</td><td class="refused bad">${r.refused}</td></tr>`,
  );
  const marginRows = p.priceAgainstCost.map(
    (l) =>
      h`<tr id="margin-${l.position}"><td>${l.position}</td><td>${l.provider}</td><td class="cost">${l.cost}</td>!${l.roles.map((r) => h`<td class="${r.below ? 'bad below-cost' : ''}" data-role="${r.role}">${r.price} / ${r.margin}</td>`).join('')}</tr>`,
  );
  const routeForm = p.canEdit
    ? h`<form method="post" action="/console/packages/${p.id}/routes">!${csrf}
<p>One row per route, tried by order (lowest first). A row without a provider is no route: empty a row's provider to remove it. Each provider reads its own fields: Hubtel serviceId, bundle and amount; Reloadly operatorId and amount; DT One productId; the sandbox none. Amounts and costs in GHS.</p>
<table><thead><tr><th>order</th><th>provider</th><th>serviceId</th><th>bundle</th><th>amount (GHS)</th><th>operatorId</th><th>productId</th><th>cost (GHS)</th></tr></thead><tbody>!${p.rows.map((row) => routeRowInputs(row, p.providers)).join('')}</tbody></table>
!${belowCostBox('routes')}
<p><button type="submit">Save routes</button></p></form>`
    : '';

  return layout(
    frame,
    h`!${facts}
<section><h2>Price and status</h2>!${pricing}</section>
<section><h2>Routes</h2>
<p>Upstreams enabled here: <strong id="enabled-upstreams">${p.enabled}</strong>.</p>
!${p.unrouted ? h`<p class="error" id="unrouted">${p.unrouted}</p>` : ''}
!${table(['#', 'provider', 'product', 'amount', 'cost', 'upstream', 'recent orders'], routeRows, 'No route.')}
<h3>Price against cost</h3>
<p>Each route's cost (its <code>cost</code>, else its amount) against what each role pays: price / margin, in GHS. New routes are read at their upstream when it is enabled here; a route to an upstream not enabled here is saved without that check.</p>
!${p.belowCost ? h`<p class="error" id="below-cost">${p.belowCost}</p>` : ''}
!${table(['#', 'provider', 'cost', ...p.roles], marginRows, 'No route.')}
!${routeForm}</section>`,
  );
}
