import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Kysely } from 'kysely';
import type { DB } from '../../src/db/schema.js';
import { parseSeed, SeedError } from '../../src/seed/import.js';
import { createTestApp, TEST_DIALECT, type TestApp } from '../support/app.js';
import { FIXTURE_SEED } from '../support/seed.js';
import { cliEnv, runCli } from '../support/cli.js';
import { KEYS } from '../support/keys.js';

const TABLES = ['operators', 'products', 'data_packages', 'data_package_prices', 'rc_packages', 'rc_package_prices',
  'rc_credentials', 'profiles', 'api_keys', 'wallets', 'ledger_entries'] as const;

async function counts(db: Kysely<DB>) {
  const out: Record<string, number> = {};
  for (const table of TABLES) {
    const row = await db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    out[table] = Number(row.n);
  }
  return out;
}

function fixture() {
  return JSON.parse(fs.readFileSync(FIXTURE_SEED, 'utf8'));
}

describe('seed import (docs/seed-import.md)', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ seed: null });
  });
  after(() => t.close());

  test('importing twice gives the same rows and credits each wallet once', async () => {
    const seed = parseSeed(fs.readFileSync(FIXTURE_SEED, 'utf8'));
    const first = await t.ctx.seeds.import(seed);
    assert.equal(first.walletsCreated, 10);
    assert.equal(first.credentialsAdded, 4);
    assert.equal(first.apiKeysAdded, 10);
    const afterFirst = await counts(t.database.db);
    const second = await t.ctx.seeds.import(seed);
    assert.equal(second.walletsCreated, 0);
    assert.equal(second.credentialsAdded, 0);
    assert.equal(second.credentialsSkipped, 4);
    assert.equal(second.apiKeysAdded, 0);
    assert.deepEqual(await counts(t.database.db), afterFirst);
    assert.deepEqual(await t.wallet('usr_super', 'live'), { available: 50_000, held: 0 });
    assert.deepEqual(await t.wallet('usr_super', 'test'), { available: 100_000, held: 0 });
    const opening = await t.database.db.selectFrom('ledger_entries').select(['kind', 'available_delta']).where('kind', '=', 'opening_balance').execute();
    // Zero opening balances write no entry: every non-zero wallet in the fixture has exactly one.
    assert.equal(opening.length, 8);
    const res = await t.call('GET', '/api/v1/wallet-balance', { key: KEYS.superLive });
    assert.equal(res.body.data.availableBalance, 500);
  });

  test('a re-import updates catalog fields and prices, keeps ids', async () => {
    const seed = fixture();
    seed.dataPackages[0].price = 11.5;
    seed.dataPackages[0].rolePrices = { Agent: 9.75 };
    seed.operators[0].name = 'Alpha Mobile Ghana';
    await t.ctx.seeds.import(parseSeed(JSON.stringify(seed)));
    const customer = await t.call('GET', '/api/v1/packages/pkg_a_1gb', { key: KEYS.customerLive });
    assert.equal(customer.body.data.price, 11.5);
    assert.equal(customer.body.data.operatorName, 'Alpha Mobile Ghana');
    const agent = await t.call('GET', '/api/v1/packages/pkg_a_1gb', { key: KEYS.agentLive });
    assert.equal(agent.body.data.price, 9.75);
    const superAgent = await t.call('GET', '/api/v1/packages/pkg_a_1gb', { key: KEYS.superLive });
    assert.equal(superAgent.body.data.price, 11.5, 'role prices removed from the file no longer apply');
  });

  test("an operator's network: set by the file, kept when the file leaves it out, cleared by null", async () => {
    const networkOfA = async () =>
      (await t.database.db.selectFrom('operators').select('network').where('id', '=', 'op_a').executeTakeFirstOrThrow()).network;
    const seed = fixture();
    seed.operators[0].network = 'AT';
    await t.ctx.seeds.import(parseSeed(JSON.stringify(seed)));
    assert.equal(await networkOfA(), 'AT');
    const res = await t.call('GET', '/api/v1/operators', { key: KEYS.agentLive });
    assert.equal(res.body.data.find((o: { _id: string }) => o._id === 'op_a').network, 'AT');
    delete seed.operators[0].network;
    await t.ctx.seeds.import(parseSeed(JSON.stringify(seed)));
    assert.equal(await networkOfA(), 'AT', 'left out: kept (set in the console or the CLI)');
    seed.operators[0].network = null;
    await t.ctx.seeds.import(parseSeed(JSON.stringify(seed)));
    assert.equal(await networkOfA(), null);
  });

  const broken: [string, (seed: ReturnType<typeof fixture>) => void, RegExp][] = [
    ['an unknown network', (s) => (s.operators[0].network = 'Vodafone'), /^operators\[0\] \(id "op_a"\) field network: must be one of MTN, TELECEL, AT, null \(got "Vodafone"\)$/],
    ['a price with three decimals', (s) => (s.dataPackages[2].price = 1.234), /^dataPackages\[2\] \(id "pkg_a_inactive"\) field price: 1\.234/],
    ['a wrong type', (s) => (s.profiles[3].role = 'Boss'), /^profiles\[3\] \(id "usr_staff"\) field role: must be one of Agent, SuperAgent, Customer, Staff \(got "Boss"\)$/],
    ['an unknown product', (s) => (s.dataPackages[4].productId = 'prd_missing'), /^dataPackages\[4\] \(id "pkg_b_1gb"\): productId "prd_missing" does not exist/],
    ['a package under another operator\'s product', (s) => (s.dataPackages[4].operatorId = 'op_a'), /^dataPackages\[4\] \(id "pkg_b_1gb"\): product "prd_b" belongs to operator "op_b"/],
    ['a malformed key', (s) => s.profiles[4].apiKeys.push({ key: 'sk_live_123' }), /^profiles\[4\] \(id "usr_suspended"\): an API key is malformed/],
    ['a duplicate id', (s) => s.operators.push({ ...s.operators[0] }), /^operators\[3\] \(id "op_a"\): duplicate id/],
    ['an unknown field', (s) => (s.products[1].colour = 'red'), /^products\[1\] \(id "prd_a_off"\): unknown field colour \(allowed: id, operatorId, name, status\)$/],
    ['a misspelt field', (s) => ((s.dataPackages[1].pirce = s.dataPackages[1].price), delete s.dataPackages[1].price), /^dataPackages\[1\] \(id "pkg_a_2gb"\): unknown field pirce \(did you mean price\?\)$/],
    ['a misspelt section', (s) => ((s.dataPakages = s.dataPackages), delete s.dataPackages), /^unknown section dataPakages \(did you mean dataPackages\?\)$/],
  ];
  for (const [name, breakIt, message] of broken) {
    test(`a seed with ${name} is rejected whole, naming the entry, writing nothing`, async () => {
      const fresh = await createTestApp({ seed: null });
      try {
        const seed = fixture();
        seed.profiles.push({ ...seed.profiles[0], id: 'usr_new', referralCode: 'NEW01', apiKeys: [] });
        breakIt(seed);
        const empty = await counts(fresh.database.db);
        await assert.rejects(
          async () => fresh.ctx.seeds.import(parseSeed(JSON.stringify(seed))),
          (error: unknown) => {
            assert.ok(error instanceof SeedError, String(error));
            assert.match(error.message, message);
            return true;
          },
        );
        assert.deepEqual(await counts(fresh.database.db), empty);
      } finally {
        await fresh.close();
      }
    });
  }

  test('cli import: a clear one-line message and a non-zero exit for a bad file, success otherwise', { skip: TEST_DIALECT !== 'sqlite' }, async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'partner-api-cli-'));
    try {
      const env = { DATABASE_URL: `sqlite:${path.join(dir, 'cli.db')}`, CREDENTIALS_KEY: Buffer.alloc(32, 1).toString('base64') };
      const badFile = path.join(dir, 'bad.json');
      const seed = fixture();
      seed.products[0].operatorId = 'op_missing';
      fs.writeFileSync(badFile, JSON.stringify(seed));
      const bad = await runCli(['import', badFile], env);
      assert.equal(bad.code, 1);
      assert.equal(bad.stderr.trim(), 'import rejected, nothing written: products[0] (id "prd_a"): operatorId "op_missing" does not exist');
      const good = await runCli(['import', FIXTURE_SEED], env);
      assert.equal(good.code, 0, good.stderr);
      assert.match(good.stdout, /profiles 5 \(wallets created 10, API keys added 10\)/);
      const missing = await runCli(['import', path.join(dir, 'nope.json')], env);
      assert.equal(missing.code, 1);
      assert.match(missing.stderr, /cannot read .*nope\.json: ENOENT/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** `cli import` over a database staff have worked on (issue 41 item 4): it says what it changes, audits it, and cannot undo staff. */
describe(`cli import shows and audits its changes, and cannot undo staff (${TEST_DIALECT})`, () => {
  let t: TestApp;
  let dir: string;
  before(async () => {
    t = await createTestApp();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'partner-api-import-'));
  });
  after(async () => {
    await t.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const cliActor = `cli:${os.userInfo().username}`;
  const write = (name: string, change: (seed: ReturnType<typeof fixture>) => void) => {
    const seed = fixture();
    change(seed);
    const file = path.join(dir, name);
    fs.writeFileSync(file, JSON.stringify(seed));
    return file;
  };
  const priceFor = async (key: string) => (await t.call('GET', '/api/v1/packages/pkg_a_1gb', { key })).body.data.price as number;

  test('a price change: --dry-run prints it and writes nothing; the import applies it with an audit row (before, after, cli:<user>)', async () => {
    const file = write('price.json', (s) => {
      s.dataPackages[0].price = 0.01;
      delete s.dataPackages[0].rolePrices.Agent;
    });
    const dry = await runCli(['import', file, '--dry-run'], cliEnv(t));
    assert.equal(dry.code, 0, dry.stderr);
    assert.match(dry.stdout, /^dry run of .*price\.json: nothing written/m);
    assert.match(dry.stdout, /^change data package pkg_a_1gb price: GHS 10\.00 → GHS 0\.01$/m);
    assert.match(dry.stdout, /^change data package pkg_a_1gb rolePrices\.Agent: GHS 9\.00 → none$/m);
    assert.equal(dry.stdout.match(/^(change|create|skip) /gm)?.length, 2, dry.stdout);
    assert.equal(await priceFor(KEYS.customerLive), 10);
    assert.equal(await priceFor(KEYS.agentLive), 9);
    assert.deepEqual(await t.ctx.audit.list({ action: 'import.package', limit: 5 }), []);

    const done = await runCli(['import', file], cliEnv(t));
    assert.equal(done.code, 0, done.stderr);
    assert.match(done.stdout, /^change data package pkg_a_1gb price: GHS 10\.00 → GHS 0\.01$/m);
    assert.equal(await priceFor(KEYS.customerLive), 0.01);
    assert.equal(await priceFor(KEYS.agentLive), 0.01, 'the Agent price is gone: the package price applies');
    const rows = await t.ctx.audit.list({ action: 'import.package', limit: 5 });
    assert.equal(rows.length, 1);
    assert.deepEqual(
      { actor: rows[0]?.actor, record: `${rows[0]?.recordType} ${rows[0]?.recordId}`, outcome: rows[0]?.outcome, detail: rows[0]?.detail },
      {
        actor: cliActor,
        record: 'data_package pkg_a_1gb',
        outcome: 'ok',
        detail: { source: 'import', before: { price: 10, 'rolePrices.Agent': 9 }, after: { price: 0.01, 'rolePrices.Agent': null } },
      },
    );

    const again = await runCli(['import', file], cliEnv(t));
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /^no changes to existing records, nothing created$/m);
    assert.equal((await t.ctx.audit.list({ action: 'import.package', limit: 5 })).length, 1, 'an unchanged file writes no audit row');
  });

  test('an import never reactivates a suspended partner, changes a role or adds a key unless a flag names it', async () => {
    const newKey = 'service_live_suspendedNewKey00001';
    const file = write('staff.json', (s) => {
      const suspended = s.profiles.find((p: { id: string }) => p.id === 'usr_suspended');
      suspended.status = 'Active';
      suspended.role = 'SuperAgent';
      suspended.apiKeys.push({ key: newKey });
    });
    const roleOf = async () =>
      (await t.database.db.selectFrom('profiles').select(['role', 'status']).where('id', '=', 'usr_suspended').executeTakeFirstOrThrow());

    const plain = await runCli(['import', file], cliEnv(t));
    assert.equal(plain.code, 0, plain.stderr);
    assert.match(plain.stdout, /^skip profile usr_suspended status: "Suspended" → "Active" \(not applied without --reactivate usr_suspended\)$/m);
    assert.match(plain.stdout, /^skip profile usr_suspended role: "Agent" → "SuperAgent" \(not applied without --allow-role-change\)$/m);
    assert.match(plain.stdout, /^skip profile usr_suspended API key service_live_susp…: none → "active" \(not applied without --add-keys\)$/m);
    assert.deepEqual(await roleOf(), { role: 'Agent', status: 'Suspended' });
    assert.equal((await t.call('GET', '/api/v1/wallet-balance', { key: KEYS.suspendedLive })).status, 403);
    assert.equal((await t.call('GET', '/api/v1/wallet-balance', { key: newKey })).status, 401, 'the key was not added');
    assert.deepEqual(await t.ctx.audit.list({ action: 'import.profile', limit: 5 }), [], 'nothing changed, nothing audited');

    const flagged = await runCli(['import', file, '--reactivate', 'usr_suspended', '--allow-role-change', '--add-keys'], cliEnv(t));
    assert.equal(flagged.code, 0, flagged.stderr);
    assert.match(flagged.stdout, /^change profile usr_suspended status: "Suspended" → "Active"$/m);
    assert.deepEqual(await roleOf(), { role: 'SuperAgent', status: 'Active' });
    assert.equal((await t.call('GET', '/api/v1/wallet-balance', { key: newKey })).status, 200);
    const [row] = await t.ctx.audit.list({ action: 'import.profile', limit: 5 });
    assert.equal(row?.actor, cliActor);
    assert.deepEqual(row?.detail, {
      source: 'import',
      before: { role: 'Agent', status: 'Suspended', 'API key service_live_susp…': null },
      after: { role: 'SuperAgent', status: 'Active', 'API key service_live_susp…': 'active' },
    });
  });
});
