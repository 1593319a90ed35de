import { Ajv2020 } from 'ajv/dist/2020.js';
import { OpenAPIBackend, type Document } from 'openapi-backend';

/**
 * Every response a test receives through `t.call` is checked against the OpenAPI document the app
 * serves, by openapi-backend (a maintained OpenAPI 3.x library) with Ajv's JSON Schema 2020-12
 * dialect, the dialect of OpenAPI 3.1: the operation is found by method and path, then the body is
 * validated against the schema of the answered status. A status the operation does not document,
 * or a body that does not match, fails the test that made the call.
 *
 * Answers the API gives outside any documented operation (404 for an unknown path, 405 for a
 * wrong method) must still be the documented error envelope.
 */

// The document is the same for every app of a run: one validator per distinct document.
const backends = new Map<string, Promise<OpenAPIBackend>>();

function backendFor(document: object): Promise<OpenAPIBackend> {
  const text = JSON.stringify(document);
  let backend = backends.get(text);
  if (!backend) {
    const api = new OpenAPIBackend({
      definition: JSON.parse(text) as Document,
      strict: true,
      // quick: skips openapi-backend's own check of the document, which knows OpenAPI 3.0 only (the
      // document is checked as 3.1 by @seriousme/openapi-schema-validator in test/http/openapi.test.ts),
      // and compiles each validator when first used.
      quick: true,
      validate: true,
      ajvOpts: { strict: false, allErrors: true },
      customizeAjv: (_ajv, options) => new Ajv2020({ ...options, strict: false, allErrors: true }),
    });
    backend = api.init();
    backends.set(text, backend);
  }
  return backend;
}

export interface CheckedResponse {
  method: string;
  url: string;
  status: number;
  contentType: string | undefined;
  body: unknown;
}

/** Why the response violates the document, or null when it conforms (or is not an API answer in JSON). */
export async function responseViolation(document: object, res: CheckedResponse): Promise<string | null> {
  const api = await backendFor(document);
  const [path = '/', query = ''] = res.url.split('?');
  const method = res.method.toLowerCase();
  if (method === 'options' || method === 'head') return null;
  const operation = api.matchOperation({ method, path, query, headers: {} });
  const json = res.contentType?.startsWith('application/json') === true;
  if (!operation) {
    // Outside the documented operations: the docs page and the document itself, or an error in the envelope.
    if (res.status < 400 || !json) return null;
    const envelope = api.validateResponse(res.body, 'getProfile', 401);
    return envelope.valid
      ? null
      : `${res.method} ${res.url} → ${res.status}: not the error envelope: ${JSON.stringify(envelope.errors)}`;
  }
  const statuses = Object.keys(operation.responses ?? {});
  if (!statuses.includes(String(res.status))) {
    return `${res.method} ${res.url} → ${res.status}: status not documented for ${operation.operationId} (documented: ${statuses.join(', ')})`;
  }
  if (!json)
    return `${res.method} ${res.url} → ${res.status}: ${res.contentType ?? 'no content type'}, the document says application/json`;
  const result = api.validateResponse(res.body, operation, res.status);
  if (result.valid) return null;
  return `${res.method} ${res.url} → ${res.status} violates the OpenAPI document (${operation.operationId}): ${JSON.stringify(result.errors)}\nbody: ${JSON.stringify(res.body).slice(0, 2000)}`;
}
