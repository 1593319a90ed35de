import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { invalid } from '../../../domain/errors.js';
import { marginCsv } from '../../margins/service.js';
import { marginsView } from '../models/margins.js';
import { MarginsQuery } from '../schemas.js';
import { marginsPage } from '../views/margins.js';
import { frameOf, html, PAGE, read, type ConsoleDeps } from './common.js';

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;
const DAY_MS = 86_400_000;

function time(name: string, text: string): number {
  const ms = ISO_TIME.test(text.trim()) ? Date.parse(text.trim()) : NaN;
  if (!Number.isFinite(ms)) throw invalid('INVALID_REQUEST', `${name} must be a time in ISO 8601 with its zone, such as 2026-11-01T00:00:00Z`);
  return ms;
}

/** The period asked for, or the last 30 days up to the end of today (UTC). */
function period(query: MarginsQuery, now: number): { from: string; to: string; fromMs: number; toMs: number } {
  const end = Math.floor(now / DAY_MS) * DAY_MS + DAY_MS;
  const to = query.to?.trim() || new Date(end).toISOString().replace('.000', '');
  const from = query.from?.trim() || new Date(end - 30 * DAY_MS).toISOString().replace('.000', '');
  return { from, to, fromMs: time('from', from), toMs: time('to', to) };
}

export const reportRoutes: FastifyPluginAsyncTypebox<ConsoleDeps> = async (app, { operations: ops, clock }) => {
  app.get('/console/reports/margins', { schema: { ...PAGE, querystring: MarginsQuery }, config: read() }, async (request, reply) => {
    const p = period(request.query, clock());
    const report = await ops.margins(p.fromMs, p.toMs, request.query.by ?? 'day');
    const names = report.by === 'partner' ? await ops.partnerNames(report.lines.map((l) => l.group)) : null;
    return html(reply, marginsPage(frameOf(request, 'Margins', 'margins'), marginsView(report, p, names)));
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
