import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { partnersView, partnerView } from '../models/partners.js';
import { statementView } from '../models/statement.js';
import { mayAct } from '../service.js';
import { linesCsv, STATEMENT_EXPORT_MAX } from '../../wallet/statement.js';
import {
  AdjustmentBody,
  CsrfOnly,
  IdParams,
  KeyBody,
  NoticeQuery,
  PartnerSearchQuery,
  ProfileBody,
  RevokeBody,
  StatementQuery,
  type ProfileBody as ProfileForm,
} from '../schemas.js';
import { errorPage } from '../views/layout.js';
import { partnerFormPage, partnerPage, partnersPage } from '../views/partners.js';
import { statementPage, statementPrintPage } from '../views/statement.js';
import { act, actorOf, frameOf, html, PAGE, requestedPage, read, seeOther, sessionOf, type ConsoleDeps } from './common.js';

const PARTNERS_PER_PAGE = 50;

const profileInput = (b: ProfileForm) => ({
  firstName: b.firstName,
  middleName: b.middleName,
  lastName: b.lastName,
  phoneNumber: b.phoneNumber,
  email: b.email,
  role: b.role,
});

export const partnerRoutes: FastifyPluginAsyncTypebox<ConsoleDeps> = async (app, { operations: ops, clock }) => {
  app.get('/console/partners', { schema: { ...PAGE, querystring: PartnerSearchQuery }, config: read() }, async (request, reply) => {
    const q = request.query;
    const mode = q.mode ?? 'live';
    const form = { q: q.q ?? '', status: q.status ?? '' };
    const found = await ops.partners({ text: form.q.trim() || undefined, status: q.status || undefined }, requestedPage(q, PARTNERS_PER_PAGE));
    return html(
      reply,
      partnersPage(frameOf(request, 'Partners', 'partners'), partnersView(form, mode, found, mayAct(sessionOf(request).role, 'admin'))),
    );
  });

  app.get('/console/partners/new', { schema: PAGE, config: read('admin') }, async (request, reply) =>
    html(
      reply,
      partnerFormPage(
        frameOf(request, 'New partner', 'partners'),
        '/console/partners',
        { firstName: '', middleName: '', lastName: '', phoneNumber: '', email: '', role: 'Agent', status: 'Active' },
        true,
      ),
    ),
  );

  app.post(
    '/console/partners',
    { schema: { ...PAGE, body: ProfileBody }, config: act('admin', 'profile.create') },
    async (request, reply) => {
      const created = await ops.createProfile(actorOf(request), { ...profileInput(request.body), status: request.body.status ?? 'Active' });
      // The page shows the keys once; htmx records the partner's page, not this form, as the address.
      void reply.header('hx-push-url', `/console/partners/${encodeURIComponent(created.id)}`);
      return partnerPageOf(request, reply, created.id, { newKeys: created.keys });
    },
  );

  app.get(
    '/console/partners/:id/edit',
    { schema: { ...PAGE, params: IdParams }, config: read('admin') },
    async (request, reply) => {
      const { id } = request.params;
      const details = await ops.profileDetails(id);
      if (!details) return notFoundPage(request, reply, id);
      return html(
        reply,
        partnerFormPage(
          frameOf(request, `Edit ${[details.firstName, details.lastName].join(' ')}`, 'partners'),
          `/console/partners/${encodeURIComponent(id)}`,
          details,
          false,
        ),
      );
    },
  );

  app.post(
    '/console/partners/:id',
    { schema: { hide: true, params: IdParams, body: ProfileBody }, config: act('admin', 'profile.update') },
    async (request, reply) => {
      await ops.updateProfile(actorOf(request), request.params.id, profileInput(request.body));
      return seeOther(reply, `/console/partners/${encodeURIComponent(request.params.id)}?notice=saved`);
    },
  );

  const statementOf = async (id: string, q: StatementQuery, limit?: number) => {
    const found = await ops.partner(id);
    if (!found) return null;
    const statement = await ops.statement({
      profileId: id,
      mode: q.mode ?? 'live',
      from: q.from || undefined,
      to: q.to || undefined,
      types: q.kind ? [q.kind] : [],
      after: q.after,
      limit,
    });
    return statementView(statement, found.profile.name);
  };

  app.get(
    '/console/partners/:id/statement',
    { schema: { ...PAGE, params: IdParams, querystring: StatementQuery }, config: read() },
    async (request, reply) => {
      const view = await statementOf(request.params.id, request.query);
      if (!view) return notFoundPage(request, reply, request.params.id);
      return html(reply, statementPage(frameOf(request, `Statement of ${view.name}`, 'partners'), view));
    },
  );

  app.get(
    '/console/partners/:id/statement/print',
    { schema: { ...PAGE, params: IdParams, querystring: StatementQuery }, config: read() },
    async (request, reply) => {
      const view = await statementOf(request.params.id, { ...request.query, after: undefined }, STATEMENT_EXPORT_MAX);
      if (!view) return notFoundPage(request, reply, request.params.id);
      return html(reply, statementPrintPage(view, new Date(clock()).toISOString().replace('T', ' ').slice(0, 19)));
    },
  );

  app.get(
    '/console/partners/:id/statement.csv',
    { schema: { hide: true, params: IdParams, querystring: StatementQuery, response: { 200: Type.String() } }, config: read() },
    async (request, reply) => {
      const { id } = request.params;
      if (!(await ops.partner(id))) return notFoundPage(request, reply, id);
      const q = request.query;
      const statement = await ops.statement({
        profileId: id,
        mode: q.mode ?? 'live',
        from: q.from || undefined,
        to: q.to || undefined,
        types: q.kind ? [q.kind] : [],
        limit: STATEMENT_EXPORT_MAX,
      });
      const name = `statement-${id}-${statement.mode}${statement.from ? `-${statement.from}` : ''}${statement.to ? `-to-${statement.to}` : ''}.csv`;
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${name.replace(/[^A-Za-z0-9._-]/g, '_')}"`)
        .send(linesCsv(statement));
    },
  );

  app.post(
    '/console/partners/:id/adjustments',
    { schema: { hide: true, params: IdParams, body: AdjustmentBody }, config: act('admin', 'wallet.adjust') },
    async (request, reply) => {
      const { id } = request.params;
      const b = request.body;
      const amount = b.amount.trim() === '' ? Number.NaN : Number(b.amount.trim());
      const done = await ops.requestAdjustment(actorOf(request), { profileId: id, mode: b.mode, direction: b.direction, amount, reason: b.reason });
      return seeOther(reply, `/console/partners/${encodeURIComponent(id)}?notice=${done.status === 'pending' ? 'adjustment_pending' : 'adjusted'}`);
    },
  );

  const notFoundPage = (request: FastifyRequest, reply: FastifyReply, profileId: string) =>
    html(reply, errorPage(frameOf(request, 'Not found', 'partners'), 404, `No profile ${profileId}.`, '/console/partners'), 404);

  const partnerPageOf = async (
    request: FastifyRequest,
    reply: FastifyReply,
    profileId: string,
    extra: { notice?: string | undefined; newKey?: { id: string; key: string }; newKeys?: { id: string; mode: string; key: string }[] } = {},
  ) => {
    const found = await ops.partner(profileId);
    if (!found) return notFoundPage(request, reply, profileId);
    const view = partnerView(found, sessionOf(request).role, extra.newKey ?? null, {
      newKeys: extra.newKeys ?? [],
      approvalAbove: ops.adjustmentApprovalAbove,
    });
    return html(reply, partnerPage(frameOf(request, `Partner ${view.name}`, 'partners', extra.notice), view));
  };

  app.get(
    '/console/partners/:id',
    { schema: { ...PAGE, params: IdParams, querystring: NoticeQuery }, config: read() },
    async (request, reply) => partnerPageOf(request, reply, request.params.id, { notice: request.query.notice }),
  );

  app.post(
    '/console/partners/:id/keys',
    { schema: { ...PAGE, params: IdParams, body: KeyBody }, config: act('admin', 'key.create') },
    async (request, reply) => {
      const { id } = request.params;
      const created = await ops.createKey(actorOf(request), id, request.body.mode);
      // The page shows the key once; htmx records the partner's page, not this form, as the address.
      void reply.header('hx-push-url', `/console/partners/${encodeURIComponent(id)}`);
      return partnerPageOf(request, reply, id, { newKey: created });
    },
  );

  app.post(
    '/console/keys/:id/revoke',
    { schema: { hide: true, params: IdParams, body: RevokeBody }, config: act('admin', 'key.revoke') },
    async (request, reply) => {
      await ops.revokeKey(actorOf(request), request.params.id);
      const { profileId } = request.body;
      return seeOther(reply, profileId ? `/console/partners/${encodeURIComponent(profileId)}?notice=revoked` : '/console/partners');
    },
  );

  for (const [path, status, notice] of [
    ['suspend', 'Suspended', 'suspended'],
    ['reactivate', 'Active', 'reactivated'],
  ] as const) {
    app.post(
      `/console/partners/:id/${path}`,
      { schema: { hide: true, params: IdParams, body: CsrfOnly }, config: act('admin', `profile.${path}`) },
      async (request, reply) => {
        const { id } = request.params;
        await ops.setProfileStatus(actorOf(request), id, status);
        return seeOther(reply, `/console/partners/${encodeURIComponent(id)}?notice=${notice}`);
      },
    );
  }
};
