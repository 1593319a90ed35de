import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { staffView } from '../models/staff.js';
import { IdParams, NoticeQuery, StaffCreateBody, StaffUpdateBody } from '../schemas.js';
import { staffPage } from '../views/staff.js';
import { act, actorOf, frameOf, html, PAGE, read, seeOther, type ConsoleDeps } from './common.js';

export const staffRoutes: FastifyPluginAsyncTypebox<ConsoleDeps> = async (app, { operations: ops }) => {
  app.get('/console/staff', { schema: { ...PAGE, querystring: NoticeQuery }, config: read('admin') }, async (request, reply) =>
    html(reply, staffPage(frameOf(request, 'Staff', 'staff', request.query.notice), staffView(await ops.staffAccounts()))),
  );

  app.post(
    '/console/staff',
    { schema: { ...PAGE, body: StaffCreateBody }, config: act('admin', 'staff.create') },
    async (request, reply) => {
      const { account, password } = await ops.createStaff(actorOf(request), request.body.email, request.body.role);
      // The page shows the one-time password once; htmx records the staff page as the address.
      void reply.header('hx-push-url', '/console/staff');
      return html(
        reply,
        staffPage(frameOf(request, 'Staff', 'staff'), staffView(await ops.staffAccounts(), { email: account.email, password })),
      );
    },
  );

  app.post(
    '/console/staff/:id',
    { schema: { hide: true, params: IdParams, body: StaffUpdateBody }, config: act('admin', 'staff.update') },
    async (request, reply) => {
      const { role, status } = request.body;
      await ops.updateStaff(actorOf(request), request.params.id, { role, status });
      return seeOther(reply, '/console/staff?notice=saved');
    },
  );
};
