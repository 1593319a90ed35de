import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CONSOLE_CSS } from '../views/assets.js';
import type { ConsoleDeps } from './common.js';

/** Our own origin serves them (no CDN); public (PUBLIC_ROUTES in ../routes.ts). */
const HTMX = fs.readFileSync(createRequire(import.meta.url).resolve('htmx.org/dist/htmx.min.js'));

export const assetRoutes: FastifyPluginAsyncTypebox<ConsoleDeps> = async (app) => {
  app.get('/console/assets/htmx.min.js', { schema: { hide: true } }, async (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').send(HTMX),
  );
  app.get('/console/assets/console.css', { schema: { hide: true } }, async (_request, reply) =>
    reply.type('text/css; charset=utf-8').send(CONSOLE_CSS),
  );
};
