import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { invalid } from '../../../domain/errors.js';
import { marginCsv, UNKNOWN_COST_LIST_MAX } from '../../margins/service.js';
import { marginsView, unknownCostView } from '../models/margins.js';
import { MarginsQuery } from '../schemas.js';
import { marginsPage, unknownCostPage } from '../views/margins.js';
import { frameOf, html, PAGE, read, type ConsoleDeps } from './common.js';

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 86_400_000;

/**
 * A bound of the period: a day from the date picker (UTC; `to` includes its day) or a time in ISO
 * 8601 with its zone (`to` not included), as the page took before it had date pickers.
 */
function bound(name: 'from' | 'to', text: string): number {
  const value = text.trim();
  if (DATE.test(value)) {
    const ms = Date.parse(`${value}T00:00:00Z`);
    if (Number.isFinite(ms) && new Date(ms).toISOString().startsWith(value)) return name === 'to' ? ms + DAY_MS : ms;
  }
  const ms = ISO_TIME.test(value) ? Date.parse(value) : NaN;
  if (!Number.isFinite(ms)) throw invalid('INVALID_REQUEST', `${name} must be a day (2026-11-01) or a time in ISO 8601 with its zone, such as 2026-11-01T00:00:00Z`);
  return ms;
}

/** The period asked for, or the last 30 days up to today (UTC), both included. */
function period(query: MarginsQuery, now: number): { from: string; to: string; fromMs: number; toMs: number } {
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  const to = query.to?.trim() || new Date(today).toISOString().slice(0, 10);
  const from = query.from?.trim() || new Date(today - 29 * DAY_MS).toISOString().slice(0, 10);
  return { from, to, fromMs: bound('from', from), toMs: bound('to', to) };
}

export const reportRoutes: FastifyPluginAsyncTypebox<ConsoleDeps> = async (app, { operations: ops, clock }) => {
  app.get('/console/reports/margins', { schema: { ...PAGE, querystring: MarginsQuery }, config: read() }, async (request, reply) => {
    const p = period(request.query, clock());
    const report = await ops.margins(p.fromMs, p.toMs, request.query.by ?? 'day');
    const names = report.by === 'partner' ? await ops.partnerNames(report.lines.map((l) => l.group)) : null;
    return html(reply, marginsPage(frameOf(request, 'Margins', 'margins'), marginsView(report, p, names)));
  });

  app.get('/console/reports/margins/unknown-cost', { schema: { ...PAGE, querystring: MarginsQuery }, config: read() }, async (request, reply) => {
    const p = period(request.query, clock());
    const sales = await ops.unknownCostSales(p.fromMs, p.toMs);
    const names = await ops.partnerNames(sales.map((s) => s.profile_id));
    return html(reply, unknownCostPage(frameOf(request, 'Sales of unknown cost', 'margins'), unknownCostView(sales, p, names, UNKNOWN_COST_LIST_MAX)));
  });

  app.get(
    '/console/reports/margins.csv',
    { schema: { hide: true, querystring: MarginsQuery, response: { 200: { type: 'string' } } }, config: read() },
    async (request, reply) => {
      const p = period(request.query, clock());
      const by = request.query.by ?? 'day';
      const report = await ops.margins(p.fromMs, p.toMs, by);
      const name = `margins-by-${by}-${p.from.slice(0, 10)}-${p.to.slice(0, 10)}.csv`;
      return reply.type('text/csv; charset=utf-8').header('content-disposition', `attachment; filename="${name}"`).send(marginCsv(report));
    },
  );
};
