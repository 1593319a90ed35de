/**
 * Regenerates the TypeScript client's OpenAPI snapshot and types from the service itself:
 * builds the app on a throw-away SQLite database, takes the document it serves at /openapi.json,
 * and writes clients/typescript/openapi.json and clients/typescript/src/schema.d.ts (openapi-typescript).
 *
 *   npm run client:generate
 *
 * test/clients/typescript-client.test.ts fails when the committed files differ from what this produces.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createContext } from '../src/context.js';
import { connect } from '../src/db/connection.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { CredentialCipher } from '../src/modules/result-checker/credential-crypto.js';

export const CLIENT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../clients/typescript');

const BANNER = `/**
 * Generated from the Partner API's OpenAPI document by openapi-typescript: do not edit.
 * Regenerate with \`npm run client:generate\` (a test fails while this file is stale).
 */

`;

/** The OpenAPI document the service serves, built without any external state. */
export async function serviceDocument(): Promise<object> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'partner-api-openapi-'));
  const url = `sqlite:${path.join(dir, 'openapi.db')}`;
  const database = await connect(url);
  try {
    await migrateToLatest(database);
    const config = loadConfig({ DATABASE_URL: url, LOG_LEVEL: 'silent' });
    const silent = { info() {}, warn() {}, error() {} };
    const ctx = createContext(config, database, silent, new CredentialCipher(randomBytes(32)));
    const app = await buildApp(ctx);
    await app.ready();
    const document = structuredClone(app.swagger()) as object;
    await app.close();
    return document;
  } finally {
    await database.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The client's generated files, keyed by their path under clients/typescript/. */
export async function generatedFiles(document?: object): Promise<Record<string, string>> {
  const doc = document ?? (await serviceDocument());
  const ast = await openapiTS(structuredClone(doc) as OpenAPI3);
  return {
    'openapi.json': `${JSON.stringify(doc, null, 2)}\n`,
    'src/schema.d.ts': BANNER + astToString(ast),
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const files = await generatedFiles();
  for (const [name, text] of Object.entries(files)) {
    fs.writeFileSync(path.join(CLIENT_DIR, name), text);
    console.log(`wrote clients/typescript/${name}`);
  }
}
