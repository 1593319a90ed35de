import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.js';
import { runCliProcess } from '../support/cli.js';

describe('configuration (docs/configuration.md)', () => {
  test('defaults', () => {
    const c = loadConfig({});
    assert.equal(c.port, 8080);
    assert.equal(c.host, '0.0.0.0');
    assert.equal(c.databaseUrl, 'sqlite:./data/partner-api.db');
    assert.equal(c.sandboxSettleMs, 3000);
    assert.equal(c.worker, 'inline');
    assert.equal(c.credentialsKey, null);
    assert.equal(c.sqliteSynchronous, 'FULL');
    assert.equal(c.databasePoolSize, 10);
    assert.equal(c.workerTuning.batchSize, 100);
    assert.equal(c.workerTuning.batchesInFlight, 4);
  });

  const bad: [string, Record<string, string>][] = [
    ['PORT', { PORT: 'abc' }],
    ['PORT', { PORT: '70000' }],
    ['DATABASE_URL', { DATABASE_URL: 'mysql://x' }],
    ['DATABASE_URL', { DATABASE_URL: 'sqlite:' }],
    ['SANDBOX_SETTLE_MS', { SANDBOX_SETTLE_MS: '-5' }],
    ['WORKER', { WORKER: 'sometimes' }],
    ['DATABASE_POOL_SIZE', { DATABASE_POOL_SIZE: '0' }],
    ['DATABASE_POOL_SIZE', { DATABASE_POOL_SIZE: 'many' }],
    ['WORKER_BATCHES_IN_FLIGHT', { WORKER_BATCHES_IN_FLIGHT: '0' }],
    ['WORKER_BATCHES_IN_FLIGHT', { WORKER_BATCHES_IN_FLIGHT: '65' }],
    ['CREDENTIALS_KEY', { CREDENTIALS_KEY: 'too-short' }],
    ['CREDENTIALS_KEY', { NODE_ENV: 'production' }],
    ['TRUST_PROXY', { TRUST_PROXY: 'nginx' }],
    ['TRUST_PROXY', { TRUST_PROXY: 'true' }],
    ['TRUST_PROXY', { TRUST_PROXY: '0' }],
    ['TRUST_PROXY', { TRUST_PROXY: '33' }],
    ['TRUST_PROXY', { TRUST_PROXY: '10.0.0.1,' }],
    ['TRUST_PROXY', { TRUST_PROXY: '10.0.0.0/0' }],
    ['TRUST_PROXY', { TRUST_PROXY: '10.0.0.0/33' }],
    ['TRUST_PROXY', { TRUST_PROXY: '10.0.0.0/8/8' }],
    ['TRUST_PROXY', { TRUST_PROXY: '127.1' }],
    ['TRUST_PROXY', { TRUST_PROXY: 'fe80::1%eth0' }],
    ['TRUST_PROXY', { TRUST_PROXY: 'fd00::/129' }],
  ];
  for (const [variable, env] of bad) {
    test(`${JSON.stringify(env)} is refused naming ${variable}`, () => {
      assert.throws(() => loadConfig(env), (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        assert.equal(error.variable, variable);
        assert.ok(error.message.startsWith(variable));
        return true;
      });
    });
  }

  test('a valid CREDENTIALS_KEY and postgres URL are accepted', () => {
    const c = loadConfig({
      CREDENTIALS_KEY: Buffer.alloc(32, 7).toString('base64'),
      DATABASE_URL: 'postgres://u@h:5432/db',
      WORKER: 'off',
      DATABASE_POOL_SIZE: '40',
      WORKER_BATCH_SIZE: '10',
      WORKER_BATCHES_IN_FLIGHT: '1',
    });
    assert.deepEqual([c.workerTuning.batchSize, c.workerTuning.batchesInFlight], [10, 1]);
    assert.equal(c.worker, 'off');
    assert.equal(c.databasePoolSize, 40);
    assert.equal(c.databaseUrl, 'postgres://u@h:5432/db');
  });

  test('the process stops with one line naming the variable', async () => {
    const result = await runCliProcess(['serve'], { PORT: 'eighty' });
    assert.equal(result.code, 1);
    assert.equal(result.stdout, '');
    assert.equal(result.stderr.trim(), 'config error: PORT must be an integer from 0 to 65535 (got "eighty")');
  });

  test('a bad TRUST_PROXY stops the process with one line naming it and the entry', async () => {
    const result = await runCliProcess(['serve'], { TRUST_PROXY: '10.0.0.1, nginx' });
    assert.equal(result.code, 1);
    assert.equal(result.stdout, '');
    assert.equal(
      result.stderr,
      'config error: TRUST_PROXY must be the proxies\' addresses or CIDRs, comma-separated (e.g. 10.0.0.5,10.1.0.0/16,fd00::/8), or a hop count from 1 to 32 (got "10.0.0.1, nginx": "nginx")\n',
    );
  });
});
