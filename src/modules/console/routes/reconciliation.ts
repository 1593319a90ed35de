import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { invalid } from '../../../domain/errors.js';
import { reconciliationView } from '../models/reconciliation.js';
import { IdParams, NoteBody, NoticeQuery, ReconcileBody } from '../schemas.js';
import { reconciliationPage } from '../views/reconciliation.js';
import { act, actorOf, frameOf, html, PAGE, read, seeOther, sessionOf, type ConsoleDeps } from './common.js';

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;

function time(name: string, text: string): number {
  const ms = ISO_TIME.test(text.trim()) ? Date.parse(text.trim()) : NaN;
  if (!Number.isFinite(ms)) throw invalid('INVALID_REQUEST', `${name} must be a time in ISO 8601 with its zone, such as 2026-11-25T00:00:00Z`);
  return ms;
}

export const reconciliationRoutes: FastifyPluginAsyncTypebox<ConsoleDeps> = async (app, { operations: ops, clock }) => {
  app.get('/console/reconciliation', { schema: { ...PAGE, querystring: NoticeQuery }, config: read() }, async (request, reply) =>
    html(
      reply,
      reconciliationPage(
        frameOf(request, 'Reconciliation', 'reconciliation', request.query.notice),
        reconciliationView(await ops.reconciliation(), sessionOf(request).role, clock()),
      ),
    ),
  );

  app.post(
    '/console/reconciliation/run',
    { schema: { hide: true, body: ReconcileBody }, config: act('admin', 'reconciliation.run') },
    async (request, reply) => {
      const { provider, from, to } = request.body;
      await ops.requestReconciliation(actorOf(request), provider, { from: time('from', from), to: time('to', to) });
      return seeOther(reply, '/console/reconciliation?notice=reconciling');
    },
  );

  app.post(
    '/console/reconciliation/findings/:id/resolve',
    { schema: { hide: true, params: IdParams, body: NoteBody }, config: act('admin', 'reconciliation.resolve') },
    async (request, reply) => {
      await ops.resolveFinding(actorOf(request), request.params.id, request.body.note);
      return seeOther(reply, '/console/reconciliation?notice=finding');
    },
  );
};
