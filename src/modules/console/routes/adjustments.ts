import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { adjustmentsView } from '../models/adjustments.js';
import { CsrfOnly, IdParams, ModeQuery, ReasonBody } from '../schemas.js';
import { adjustmentsPage } from '../views/adjustments.js';
import { act, actorOf, frameOf, html, PAGE, read, seeOther, sessionOf, type ConsoleDeps } from './common.js';

/** Wallet adjustments waiting for a second admin, and the latest decided (docs/console.md, "Wallet adjustments"). */
export const adjustmentRoutes: FastifyPluginAsyncTypebox<ConsoleDeps> = async (app, { operations: ops }) => {
  app.get('/console/adjustments', { schema: { ...PAGE, querystring: ModeQuery }, config: read() }, async (request, reply) => {
    const session = sessionOf(request);
    const mode = request.query.mode ?? 'live';
    const [pending, recent] = await Promise.all([ops.adjustments({ status: 'pending', mode, limit: 500 }), ops.adjustments({ mode, limit: 200 })]);
    const rows = [...pending, ...recent.filter((a) => a.status !== 'pending')];
    const names = await ops.partnerNames(rows.map((a) => a.profile_id));
    return html(
      reply,
      adjustmentsPage(
        frameOf(request, 'Adjustments', 'adjustments', request.query.notice),
        adjustmentsView(rows, { role: session.role, staffId: session.staffId }, ops.adjustmentApprovalAbove, { mode, names }),
      ),
    );
  });

  app.post(
    '/console/adjustments/:id/approve',
    { schema: { hide: true, params: IdParams, body: CsrfOnly }, config: act('admin', 'wallet.adjust.approve') },
    async (request, reply) => {
      await ops.approveAdjustment(actorOf(request), request.params.id);
      return seeOther(reply, '/console/adjustments?notice=adjustment_approved');
    },
  );

  app.post(
    '/console/adjustments/:id/reject',
    { schema: { hide: true, params: IdParams, body: ReasonBody }, config: act('admin', 'wallet.adjust.reject') },
    async (request, reply) => {
      await ops.rejectAdjustment(actorOf(request), request.params.id, request.body.reason);
      return seeOther(reply, '/console/adjustments?notice=adjustment_rejected');
    },
  );
};
