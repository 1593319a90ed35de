import { html as h } from 'ghtml';
import type { ModeSwitch, PagingLinks, PartnerRef } from '../models/listing.js';

/** The live/test switch of a list: the current mode marked, so it is always visible which one is shown. */
export const modeSwitchBar = (m: ModeSwitch) =>
  h`<p class="modes" id="mode-switch">Mode: !${m.choices
    .map((c) => (c.current ? h`<strong aria-current="true" class="mode-${c.mode}">${c.mode}</strong>` : h`<a href="${c.href}">${c.mode}</a>`))
    .join(' · ')}</p>`;

export const pagingBar = (p: PagingLinks) =>
  p.newer === null && p.older === null
    ? ''
    : h`<nav class="paging" aria-label="pages">!${p.newer ? h`<a href="${p.newer}" rel="prev">Newer</a>` : ''} !${p.older ? h`<a href="${p.older}" rel="next">Older</a>` : ''}</nav>`;

export const partnerLink = (p: PartnerRef) => h`<a href="${p.href}" title="${p.id}">${p.name}</a>`;
