import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import Sqlite from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { demoEnvironment, importDemoSeed } from '../../src/cli/commands/demo.js';
import { removeDemoEnv, withDemoEnv, writeDemoEnv } from '../../src/cli/demo-env.js';
import { CliIo } from '../../src/cli/io.js';
import { openRuntime } from '../../src/cli/runtime.js';
import { SIMULATORS } from '../../src/providers/simulators.js';
import { createTestApp, TEST_DIALECT, type TestApp } from '../support/app.js';
import { cliEnv, runCli, spawnCli } from '../support/cli.js';

/** An address of this machine other than loopback, if it has one. */
function externalIPv4(): string | undefined {
  return Object.values(os.networkInterfaces())
    .flat()
    .find((a) => a !== undefined && a.family === 'IPv4' && !a.internal)?.address;
}

/** Whether a TCP connection to host:port is accepted (a refusal or an error is false). */
function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    socket.setTimeout(10_000);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

describe('npm run demo listens on 127.0.0.1 unless HOST is set (its keys are public)', () => {
  test('how the demo resolves its host', () => {
    const on = { CONSOLE_ENABLED: 'true' };
    assert.deepEqual(demoEnvironment({ PORT: '1' }), { env: { PORT: '1', HOST: '127.0.0.1', ...on }, localOnly: true });
    assert.deepEqual(demoEnvironment({ HOST: '  ' }), { env: { HOST: '127.0.0.1', ...on }, localOnly: true });
    assert.deepEqual(demoEnvironment({ HOST: '0.0.0.0' }), { env: { HOST: '0.0.0.0', ...on }, localOnly: false });
    assert.deepEqual(demoEnvironment({ HOST: '0.0.0.0', CONSOLE_ENABLED: 'false' }), {
      env: { HOST: '0.0.0.0', CONSOLE_ENABLED: 'false' },
      localOnly: false,
    });
  });

  test('the running demo: loopback only, and its banner says how to expose it', { timeout: 180_000 }, async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'partner-api-demo-'));
    const demo = spawnCli(['demo'], {
      DATABASE_URL: `sqlite:${path.join(dir, 'demo.db')}`,
      CREDENTIALS_KEY: Buffer.alloc(32, 5).toString('base64'),
      HOST: '',
      PORT: '0',
    });
    try {
      // The banner is one write: once its last line is in, all of it is.
      await demo.waitForOutput('Ctrl-C stops.');
      const banner = demo.stdout();
      const port = Number(/partner-api demo is running at http:\/\/127\.0\.0\.1:(\d+)$/m.exec(banner)?.[1]);
      assert.ok(port > 0, banner);
      assert.match(
        banner,
        /^listening on 127\.0\.0\.1 only, as the demo keys are public; to expose it: HOST=0\.0\.0\.0 npm run demo$/m,
      );
      assert.equal(await accepts('127.0.0.1', port), true);
      // The console is on, with a demo admin login printed in the banner that signs in.
      const login = /^staff console: (http:\S+)\/console {2}sign in as (\S+) with (\S+) \(admin/m.exec(banner);
      assert.ok(login, banner);
      const [, base, email, password] = login;
      const form = await fetch(`${base}/console/login`);
      const page = await form.text();
      const csrf = /name="_csrf" value="([^"]+)"/.exec(page)?.[1] ?? '';
      const signedIn = await fetch(`${base}/console/login`, {
        method: 'POST',
        redirect: 'manual',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          cookie: (form.headers.get('set-cookie') ?? '').split(';')[0] ?? '',
        },
        body: new URLSearchParams({ _csrf: csrf, email: email ?? '', password: password ?? '' }).toString(),
      });
      assert.equal(signedIn.status, 303, await signedIn.text());
      assert.match(
        signedIn.headers.get('set-cookie') ?? '',
        /console_session=[^;]+; Max-Age=28800; Path=\/console; HttpOnly; SameSite=Strict/,
      );
      // Mobile Money top-ups go to the demo's Paystack simulator.
      const demoKey = /^demo key \(Ama Mensah, SuperAgent, test mode\): (\S+)$/m.exec(banner)?.[1] ?? '';
      const momo = await fetch(`${base}/api/v1/top-ups/mobile-money`, {
        method: 'POST',
        headers: { 'x-api-key': demoKey, 'content-type': 'application/json' },
        body: JSON.stringify({ amount: 50, phone: '0551234000' }),
      });
      const charged = (await momo.json()) as { data?: { payment?: { status?: string } } };
      assert.equal(momo.status, 201, JSON.stringify(charged));
      assert.equal(charged.data?.payment?.status, 'pay_offline');
      assert.match(banner, /^Mobile Money top-ups go to a Paystack simulator \(http:\/\/127\.0\.0\.1:\d+;/m);
      // /docs sends its requests to the origin it is served from, with the demo's test key filled in.
      const docs = await (await fetch(`${base}/docs/`)).text();
      assert.ok(docs.includes('service_test_demoAmaMensahTest0001'), 'the reference page carries the demo key');
      const servers = ((await (await fetch(`${base}/openapi.json`)).json()) as { servers: { url: string; description: string }[] }).servers;
      assert.deepEqual(servers.map((s) => s.url), ['/']);
      assert.doesNotMatch(JSON.stringify(servers), /8080/);
      const external = externalIPv4();
      if (external) assert.equal(await accepts(external, port), false, `reachable on ${external}`);
    } finally {
      demo.child.kill('SIGTERM');
      await demo.exited().catch(() => demo.kill());
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a busy port: the demo names it and how to choose another, and leaves no worker heartbeat behind', { timeout: 180_000 }, async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as net.AddressInfo).port;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'partner-api-demo-busy-'));
    const file = path.join(dir, 'demo.db');
    try {
      const demo = spawnCli(['demo'], {
        DATABASE_URL: `sqlite:${file}`,
        CREDENTIALS_KEY: Buffer.alloc(32, 5).toString('base64'),
        HOST: '',
        PORT: String(port),
      });
      assert.equal(await demo.exited(), 1, demo.output());
      assert.match(
        demo.stderr(),
        new RegExp(`port ${port} on 127\\.0\\.0\\.1 is already in use \\(EADDRINUSE\\): stop what listens there, or choose another port with PORT, e\\.g\\. PORT=${port + 1}$`, 'm'),
      );
      const db = new Sqlite(file, { readonly: true });
      try {
        assert.deepEqual(db.prepare('select * from worker_heartbeats').all(), [], 'no heartbeat of a worker that never served');
      } finally {
        db.close();
      }
    } finally {
      blocker.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe(`npm run demo beside existing data (${TEST_DIALECT})`, () => {
  const quietIo = (env: Record<string, string>) => new CliIo({ ...process.env, LOG_LEVEL: 'warn', ...env }, () => undefined, () => undefined, { write: () => undefined });
  const hasDemoPackage = async (t: TestApp) =>
    (await t.database.db.selectFrom('data_packages').select('id').where('id', '=', 'pkg_mtn_1gb').executeTakeFirst()) !== undefined;

  test('the demo imports its seed into an empty database only, and says in one line when it skips', async (c) => {
    const used = await createTestApp();
    c.after(() => used.close());
    const rt = await openRuntime(quietIo(cliEnv(used)));
    try {
      const line = await importDemoSeed(rt);
      assert.equal(line, 'import skipped: the database already has profiles or packages (the demo imports examples/demo-seed.json into an empty database only)');
      assert.equal(await hasDemoPackage(used), false, 'nothing of the demo seed was written');
    } finally {
      await rt.close();
    }

    const empty = await createTestApp({ seed: null });
    c.after(() => empty.close());
    const fresh = await openRuntime(quietIo(cliEnv(empty)));
    try {
      assert.match(await importDemoSeed(fresh), /^operators \d+, products \d+, data packages \d+/);
      assert.equal(await hasDemoPackage(empty), true);
    } finally {
      await fresh.close();
    }
  });

  test(
    "the CLI on the demo's database sees the demo's upstreams while the demo runs, unless its own environment sets them",
    { skip: TEST_DIALECT !== 'sqlite' && 'demo.env is written beside a SQLite database' },
    async (c) => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'partner-api-demo-env-'));
      c.after(() => fs.rmSync(dir, { recursive: true, force: true }));
      const hubtel = await SIMULATORS.hubtel?.({});
      assert.ok(hubtel);
      c.after(() => hubtel.close());
      // What the demo writes: the simulators' variables and the callback settings Hubtel needs.
      const vars = { ...hubtel.env, PUBLIC_BASE_URL: 'http://127.0.0.1:8080', PROVIDER_CALLBACK_TOKEN: 'c'.repeat(48) };
      const env = { DATABASE_URL: `sqlite:${path.join(dir, 'demo.db')}`, CREDENTIALS_KEY: Buffer.alloc(32, 5).toString('base64') };
      const balances = async (extra: Record<string, string> = {}) => (await runCli(['providers', 'balances'], { ...env, ...extra })).stdout;
      assert.match(await balances(), /^no upstream is enabled$/m);

      // The demo's process is running (here: this test's parent stands for it).
      const file = writeDemoEnv(env.DATABASE_URL, vars, process.ppid);
      assert.equal(file, path.join(dir, 'demo.env'));
      assert.equal((fs.statSync(file).mode & 0o777).toString(8), '600');
      assert.match(await balances(), /^hubtel {2}/m);
      assert.match(await balances({ HUBTEL_API_KEY: '' }), /^hubtel {2}/m, 'an empty variable counts as unset');
      assert.equal(withDemoEnv({ ...env, HUBTEL_API_ID: 'mine' }).HUBTEL_API_ID, 'mine', 'the environment wins');
      assert.equal(withDemoEnv({ ...env, DATABASE_URL: `sqlite:${path.join(dir, 'other.db')}` }).HUBTEL_API_ID, undefined, 'another database: not read');

      // A demo that is gone: its file is not read.
      const gone = spawn(process.execPath, ['-e', '']);
      await new Promise((resolve) => gone.once('exit', resolve));
      writeDemoEnv(env.DATABASE_URL, vars, gone.pid);
      assert.match(await balances(), /^no upstream is enabled$/m);
      removeDemoEnv(env.DATABASE_URL, gone.pid);
      assert.equal(fs.existsSync(file), false);
    },
  );
});
