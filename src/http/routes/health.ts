import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Database } from '../../db/connection.js';
import { HttpError } from '../errors.js';

/** GET /healthz, no key: 200 once migrations are done (the app is built after them) and the database answers. */
export const healthRoutes: FastifyPluginAsyncTypebox<{ database: Database }> = async (app, { database }) => {
  app.get('/healthz', { schema: { tags: ['ops'], response: { 200: Type.Object({ status: Type.Literal('ok') }) } } }, async () => {
    try {
      await database.ping();
    } catch {
      throw new HttpError(503, 'INTERNAL_ERROR', 'Database is not answering');
    }
    return { status: 'ok' as const };
  });
};
