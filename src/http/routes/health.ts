import { sql } from 'kysely';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../../context.js';
import { AppError } from '../errors.js';

/** GET /healthz, no key: 200 once migrations are done (the app is built after them) and the database answers. */
export const healthRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/healthz',
    { schema: { tags: ['ops'], response: { 200: Type.Object({ status: Type.Literal('ok') }) } } },
    async () => {
      try {
        await sql`select 1`.execute(ctx.database.read);
      } catch {
        throw new AppError(503, 'INTERNAL_ERROR', 'Database is not answering');
      }
      return { status: 'ok' as const };
    },
  );
};
