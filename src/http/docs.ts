import type { FastifyApiReferenceOptions } from '@scalar/fastify-api-reference';

/**
 * GET /docs: the API reference (Scalar) rendered from GET /openapi.json. Everything it loads comes
 * from this server: its script is served from the installed package at /docs/js/scalar.js, no
 * fonts, no request proxy, no telemetry, no AI agent or MCP panels, no client that sends requests
 * from elsewhere. Requests go to the origin the page was served from (the document's server is `/`);
 * when the demo serves it, its test key is filled in.
 */
export const docsOptions = (demoApiKey?: string): FastifyApiReferenceOptions => ({
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
    // The demo's published test key, filled in so "Test request" works at once; never a real key.
    ...(demoApiKey ? { authentication: { preferredSecurityScheme: 'apiKey', securitySchemes: { apiKey: { value: demoApiKey } } } } : {}),
  },
});
