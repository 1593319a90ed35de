import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { inventoryView } from '../models/inventory.js';
import { UploadBody } from '../schemas.js';
import { inventoryPage } from '../views/inventory.js';
import { act, actorOf, frameOf, html, PAGE, read, sessionOf, type ConsoleDeps } from './common.js';

export const inventoryRoutes: FastifyPluginAsyncTypebox<ConsoleDeps> = async (app, { operations: ops }) => {
  app.get('/console/inventory', { schema: PAGE, config: read() }, async (request, reply) =>
    html(
      reply,
      inventoryPage(
        frameOf(request, 'Result-checker inventory', 'inventory'),
        inventoryView(await ops.stock(), await ops.voidedCredentials(), sessionOf(request).role),
      ),
    ),
  );

  app.post(
    '/console/inventory/upload',
    { schema: { ...PAGE, body: UploadBody }, config: act('operator', 'rc.import') },
    async (request, reply) => {
      const { packageId, file } = request.body;
      const csv = Buffer.isBuffer(file) ? file.toString('utf8') : String(file);
      const result = await ops.importCredentials(actorOf(request), packageId, csv, 'upload');
      const frame = frameOf(request, 'Result-checker inventory', 'inventory');
      frame.notice = `Loaded into ${packageId}: added ${result.added}, skipped ${result.skipped} (duplicates); in stock now ${result.stock}.`;
      // htmx shows the inventory's own address, not the form's (which has no page to go Back to).
      void reply.header('hx-push-url', '/console/inventory');
      return html(reply, inventoryPage(frame, inventoryView(await ops.stock(), await ops.voidedCredentials(), sessionOf(request).role)));
    },
  );
};
