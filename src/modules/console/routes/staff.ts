import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { staffView, type StaffCreated } from '../models/staff.js';
import { CsrfOnly, IdParams, NoticeQuery, ReasonBody, StaffCreateBody, StaffUpdateBody } from '../schemas.js';
import { staffPage } from '../views/staff.js';
import { act, actorOf, frameOf, html, PAGE, read, seeOther, sessionOf, type ConsoleDeps } from './common.js';

export const staffRoutes: FastifyPluginAsyncTypebox<ConsoleDeps> = async (app, { operations: ops }) => {
  const view = async (request: FastifyRequest, created: StaffCreated | null = null) =>
    staffView(await ops.staffAccounts(), await ops.staffRequests('pending'), sessionOf(request), created);

  app.get('/console/staff', { schema: { ...PAGE, querystring: NoticeQuery }, config: read('admin') }, async (request, reply) =>
    html(reply, staffPage(frameOf(request, 'Staff', 'staff', request.query.notice), await view(request))),
  );

  app.post(
    '/console/staff',
    { schema: { ...PAGE, body: StaffCreateBody }, config: act('admin', 'staff.create') },
    async (request, reply) => {
      const { account, request: pending, password } = await ops.createStaff(actorOf(request), request.body.email, request.body.role);
      // The page shows the one-time password once; htmx records the staff page as the address.
      void reply.header('hx-push-url', '/console/staff');
      const email = account?.email ?? pending?.email ?? request.body.email;
      return html(reply, staffPage(frameOf(request, 'Staff', 'staff'), await view(request, { email, password, pendingRequest: pending?.id ?? null })));
    },
  );

  app.post(
    '/console/staff/:id',
    { schema: { hide: true, params: IdParams, body: StaffUpdateBody }, config: act('admin', 'staff.update') },
    async (request, reply) => {
      const { role, status } = request.body;
      const { request: pending } = await ops.updateStaff(actorOf(request), request.params.id, { role, status });
      return seeOther(reply, `/console/staff?notice=${pending ? 'staff_requested' : 'saved'}`);
    },
  );

  app.post(
    '/console/staff/requests/:id/approve',
    { schema: { hide: true, params: IdParams, body: CsrfOnly }, config: act('admin', 'staff.request.approve') },
    async (request, reply) => {
      await ops.approveStaffRequest(actorOf(request), request.params.id);
      return seeOther(reply, '/console/staff?notice=staff_request_approved');
    },
  );

  app.post(
    '/console/staff/requests/:id/reject',
    { schema: { hide: true, params: IdParams, body: ReasonBody }, config: act('admin', 'staff.request.reject') },
    async (request, reply) => {
      await ops.rejectStaffRequest(actorOf(request), request.params.id, request.body.reason);
      return seeOther(reply, '/console/staff?notice=staff_request_rejected');
    },
  );
};
