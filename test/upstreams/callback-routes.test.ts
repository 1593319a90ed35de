import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RELOADLY_SIGNATURE_HEADER, RELOADLY_TIMESTAMP_HEADER, signReloadlyCallback } from '../../src/providers/reloadly/signature.js';
import { useTestApp } from '../support/app.js';

/**
 * The callback routes themselves (docs/live-delivery.md, "Callbacks"), whatever the upstream says in
 * them: who may call, which bodies are refused, and that an unknown reference is answered 200.
 * What a callback does to a delivery is in the upstreams' end-to-end tests beside this file.
 */

const TOKEN = 'a'.repeat(40);
const SECRET = 'reloadly-webhook-secret-for-tests';

async function post(t: Awaited<ReturnType<typeof useTestApp>>, url: string, payload: string, headers: Record<string, string> = {}) {
  const res = await t.app.inject({ method: 'POST', url, payload, headers: { 'content-type': 'application/json', ...headers } });
  return { status: res.statusCode, body: res.body ? (JSON.parse(res.body) as Record<string, unknown>) : null };
}

test('without PROVIDER_CALLBACK_TOKEN or RELOADLY_WEBHOOK_SECRET the callback routes answer 404', async (c) => {
  const t = await useTestApp(c);
  for (const url of ['/callbacks/reloadly', `/callbacks/hubtel/${TOKEN}`, `/callbacks/dtone/${TOKEN}`]) {
    const res = await post(t, url, '{"Data":{"ClientReference":"PA01"}}');
    assert.equal(res.status, 404, url);
    assert.equal((res.body?.error as { code?: string } | undefined)?.code, 'NOT_FOUND', url);
  }
});

test('a wrong token is 404, a bad or missing signature 401; a right one is 200 even for a reference that is not ours', async (c) => {
  const t = await useTestApp(c, {
    env: { PROVIDER_CALLBACK_TOKEN: TOKEN, RELOADLY_CLIENT_ID: 'id', RELOADLY_CLIENT_SECRET: 'secret', RELOADLY_WEBHOOK_SECRET: SECRET },
  });
  assert.equal((await post(t, `/callbacks/hubtel/${'b'.repeat(40)}`, '{}')).status, 404);
  assert.equal((await post(t, `/callbacks/dtone/${TOKEN.slice(1)}`, '{}')).status, 404);
  const hubtel = await post(t, `/callbacks/hubtel/${TOKEN}`, JSON.stringify({ ResponseCode: '0000', Data: { ClientReference: 'PA0NOTOURS' } }));
  assert.deepEqual([hubtel.status, hubtel.body], [200, { received: true }]);
  const dtone = await post(t, `/callbacks/dtone/${TOKEN}`, JSON.stringify({ id: 1, external_id: 'PA0NOTOURS' }));
  assert.deepEqual([dtone.status, dtone.body], [200, { received: true }]);

  const body = JSON.stringify({ type: 'airtime_transaction.status', data: { transactionId: 1, customIdentifier: 'PA0NOTOURS', status: 'SUCCESSFUL' } });
  const timestamp = String(Math.floor(Date.now() / 1000));
  const signed = { [RELOADLY_TIMESTAMP_HEADER]: timestamp, [RELOADLY_SIGNATURE_HEADER]: signReloadlyCallback(body, timestamp, SECRET) };
  assert.equal((await post(t, '/callbacks/reloadly', body)).status, 401, 'unsigned');
  assert.equal((await post(t, '/callbacks/reloadly', body, { ...signed, [RELOADLY_SIGNATURE_HEADER]: 'ab'.repeat(32) })).status, 401, 'bad signature');
  assert.equal((await post(t, '/callbacks/reloadly', body.replace('SUCCESSFUL', 'FAILED'), signed)).status, 401, 'body altered after signing');
  const ok = await post(t, '/callbacks/reloadly', body, signed);
  assert.deepEqual([ok.status, ok.body], [200, { received: true }]);
});

test('malformed JSON is 400, a body over 64 KB is 413, never a 500', async (c) => {
  const t = await useTestApp(c, { env: { PROVIDER_CALLBACK_TOKEN: TOKEN } });
  const bad = await post(t, `/callbacks/dtone/${TOKEN}`, '{"id": ');
  assert.equal(bad.status, 400);
  const big = await post(t, `/callbacks/dtone/${TOKEN}`, JSON.stringify({ pad: 'x'.repeat(70 * 1024) }));
  assert.equal(big.status, 413);
  const list = await post(t, `/callbacks/hubtel/${TOKEN}`, '[1,2]');
  assert.equal(list.status, 400, 'a callback body is an object');
});
