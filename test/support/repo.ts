import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The repository's root folder: the nearest folder above this file whose package.json is
 * partner-api's. This file runs from test/support/ (through tsx) or compiled from
 * .test-build/test/support/ (scripts/run-tests.mjs): both find the same root.
 */
function findRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (fs.existsSync(manifest) && (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { name?: string }).name === 'partner-api') return dir;
    if (path.dirname(dir) === dir) throw new Error(`no partner-api package.json above ${from}`);
  }
}

export const ROOT = findRoot(path.dirname(fileURLToPath(import.meta.url)));
