import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { auditView, partnerOfEntry } from '../models/audit.js';
import { AuditQuery } from '../schemas.js';
import { auditPage } from '../views/audit.js';
import { frameOf, html, PAGE, read, type ConsoleDeps } from './common.js';

const PAGE_SIZE = 100;

export const auditRoutes: FastifyPluginAsyncTypebox<ConsoleDeps> = async (app, { operations: ops }) => {
  app.get('/console/audit', { schema: { ...PAGE, querystring: AuditQuery }, config: read() }, async (request, reply) => {
    const action = request.query.action?.trim() ?? '';
    const entries = await ops.audit({ action: action || undefined, beforeId: request.query.before, limit: PAGE_SIZE });
    const names = await ops.partnerNames(entries.flatMap((e) => partnerOfEntry(e) ?? []));
    return html(reply, auditPage(frameOf(request, 'Audit trail', 'audit'), auditView(entries, action, PAGE_SIZE, names)));
  });
};
