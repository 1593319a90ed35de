import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Database } from '../../db/connection.js';
import { HttpError } from '../errors.js';

/** GET /healthz, no key: 200 once migrations are done (the app is built after them) and the database answers. */
export const healthRoutes: FastifyPluginAsyncTypebox<{ database: Database }> = async (app, { database }) => {
  const schema = {
    tags: ['ops'],
    summary: 'Health: 200 once migrations are done and the database answers',
    security: [],
    response: {
      200: Type.Object({ status: Type.Literal('ok', { description: 'The service is up and its database answers' }) }),
      503: Type.Ref('ErrorEnvelope'),
    },
  };
  app.get('/healthz', { schema }, async () => {
    try {
      await database.ping();
    } catch {
      throw new HttpError(503, 'INTERNAL_ERROR', 'Database is not answering');
    }
    return { status: 'ok' as const };
  });
};
