// The baselines of issue 5: the same work as a scenario, without our service logic (no framework,
// no validation, no catalog, no delivery), measured exactly like the ceiling and the service. They
// show what this machine gives the bare work, so a ratio of the service can be read against them.
//
// BASELINE=read            auth (SHA-256 of the key, its row joined to the profile and the wallet) and JSON
// BASELINE=purchase-each   auth, then one SQLite transaction per purchase (synchronous=FULL)
// BASELINE=purchase-group  auth, then the purchases that arrive together in one transaction, a
//                          savepoint each (group commit), synchronous=FULL
//
// SERVICE_DB: the service's SQLite database (read only: the keys, profiles and wallets the load uses).
// WORK_DB: a fresh file for the purchase tables. PORT: where to listen.
import { Buffer } from 'node:buffer';
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import { setImmediate } from 'node:timers';
import SQLite from 'better-sqlite3';

const mode = process.env.BASELINE;
const keys = new SQLite(process.env.SERVICE_DB, { readonly: true });
const keyHash = (key) => createHash('sha256').update(String(key)).digest('hex');

function send(res, status, value) {
  const body = JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

function readBaseline() {
  const query = keys.prepare(
    `select k.id as key_id, k.mode, k.revoked, w.id as wallet_id, w.available, w.held, p.*
       from api_keys k join profiles p on p.id = k.profile_id
       left join wallets w on w.profile_id = k.profile_id and w.mode = k.mode
      where k.key_hash = ?`,
  );
  return (req, res) => {
    const row = query.get(keyHash(req.headers['x-api-key']));
    if (!row) return send(res, 401, { success: false });
    send(res, 200, { success: true, data: row });
  };
}

function purchaseBaseline(grouped) {
  const file = process.env.WORK_DB;
  for (const suffix of ['', '-wal', '-shm']) fs.rmSync(`${file}${suffix}`, { force: true });
  const db = new SQLite(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  // What a purchase writes, with the indexes that guard it: the wallet hold, its ledger entry,
  // the order, its item (one open order per number) and the outbox row that will deliver it.
  db.exec(`
    create table wallets (id text primary key, profile_id text not null unique, available integer not null, held integer not null);
    create table ledger (id text primary key, wallet_id text not null, kind text not null, amount integer not null,
      available_after integer not null, held_after integer not null, order_id text, created_at integer not null);
    create index ledger_wallet on ledger (wallet_id, id);
    create table orders (id text primary key, profile_id text not null, mode text not null, package_id text not null,
      msisdn text not null, amount integer not null, state text not null, created_at integer not null, updated_at integer not null);
    create index orders_owner on orders (profile_id, mode, created_at, id);
    create table items (id text primary key, order_id text not null, msisdn text not null, status text not null, amount integer not null);
    create unique index items_in_flight on items (msisdn) where status in ('pending', 'processing');
    create table outbox (id integer primary key, item_id text not null unique, run_at integer not null);
    create index outbox_run_at on outbox (run_at);
  `);
  const fund = db.prepare('insert into wallets values (?, ?, ?, 0)');
  for (const { profile_id } of keys.prepare('select distinct profile_id from api_keys').all()) {
    fund.run(randomUUID(), profile_id, 1e12);
  }
  const keyQuery = keys.prepare('select profile_id, revoked from api_keys where key_hash = ?');
  const hold = db.prepare(
    'update wallets set available = available - ?, held = held + ? where profile_id = ? and available >= ? returning id, available, held',
  );
  const ledger = db.prepare('insert into ledger values (?, ?, ?, ?, ?, ?, ?, ?)');
  const order = db.prepare('insert into orders values (?, ?, ?, ?, ?, ?, ?, ?, ?)');
  const item = db.prepare('insert into items values (?, ?, ?, ?, ?)');
  const outbox = db.prepare('insert into outbox (item_id, run_at) values (?, ?)');
  const amount = 500;

  function purchase(profileId, body) {
    const now = Date.now();
    const orderId = randomUUID();
    const wallet = hold.get(amount, amount, profileId, amount);
    if (!wallet) throw new Error('insufficient funds');
    ledger.run(randomUUID(), wallet.id, 'hold', -amount, wallet.available, wallet.held, orderId, now);
    order.run(orderId, profileId, 'live', String(body.packageId), String(body.beneficiaryMsisdn), amount, 'pending', now, now);
    const itemId = randomUUID();
    item.run(itemId, orderId, String(body.beneficiaryMsisdn), 'pending', amount);
    outbox.run(itemId, now);
    return { orderId, amount };
  }

  let queue = [];
  function commitQueued() {
    const batch = queue;
    queue = [];
    db.exec('begin immediate');
    for (const job of batch) {
      db.exec('savepoint purchase');
      try {
        job.result = purchase(job.profileId, job.body);
        db.exec('release purchase');
      } catch (error) {
        db.exec('rollback to purchase');
        db.exec('release purchase');
        job.error = error;
      }
    }
    db.exec('commit');
    for (const job of batch) {
      if (job.error) send(job.res, 409, { success: false, error: String(job.error.message) });
      else send(job.res, 200, { success: true, data: job.result });
    }
  }

  return (req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const key = keyQuery.get(keyHash(req.headers['x-api-key']));
      if (!key || key.revoked) return send(res, 401, { success: false });
      let body;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return send(res, 400, { success: false });
      }
      queue.push({ profileId: key.profile_id, body, res });
      if (!grouped) commitQueued();
      // Everything that arrives before the next turn of the event loop joins this group.
      else if (queue.length === 1) setImmediate(commitQueued);
    });
  };
}

const handlers = { read: readBaseline, 'purchase-each': () => purchaseBaseline(false), 'purchase-group': () => purchaseBaseline(true) };
if (!(mode in handlers)) throw new Error(`BASELINE must be one of ${Object.keys(handlers).join(', ')}`);
const handle = handlers[mode]();
const server = http.createServer((req, res) => {
  if (req.url === '/healthz') return send(res, 200, { status: 'ok' });
  handle(req, res);
});
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  process.stdout.write(`listening ${server.address().port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
