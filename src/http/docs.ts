import type { FastifyApiReferenceOptions } from '@scalar/fastify-api-reference';

/**
 * GET /docs: the API reference (Scalar) rendered from GET /openapi.json. Everything it loads comes
 * from this server: its script is served from the installed package at /docs/js/scalar.js, no
 * fonts, no request proxy, no telemetry, no AI agent or MCP panels, no client that sends requests
 * from elsewhere.
 */
export const docsOptions: FastifyApiReferenceOptions = {
  routePrefix: '/docs',
  logLevel: 'warn',
  configuration: {
    url: '/openapi.json',
    pageTitle: 'Partner API reference',
    withDefaultFonts: false,
    telemetry: false,
    agent: { disabled: true },
    hideClientButton: true,
    showDeveloperTools: 'never',
    persistAuth: false,
    documentDownloadType: 'json',
    defaultOpenAllTags: true,
    operationTitleSource: 'summary',
  },
};
