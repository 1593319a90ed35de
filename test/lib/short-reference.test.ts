import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { REFERENCE_ALPHABET, shortReference } from '../../src/lib/ids.js';
import { useTestApp } from '../support/app.js';
import { agentProfile, fixtureWith } from '../support/seed.js';
import { liveKeyOf, testKeyOf } from '../support/keys.js';

const FORMAT = new RegExp(`^(DB|RC)[${REFERENCE_ALPHABET}]{8}$`);

describe('short references (user-friendly alphanumeric)', () => {
  test('letters and digits only, 10 characters, none a person can misread (0/O, 1/I/L)', () => {
    assert.equal(REFERENCE_ALPHABET.length, 31);
    assert.doesNotMatch(REFERENCE_ALPHABET, /[0O1IL]/);
    const seen = new Set<string>();
    for (let i = 0; i < 20_000; i++) {
      const reference = shortReference(i % 2 ? 'DB' : 'RC');
      assert.match(reference, FORMAT);
      for (const c of reference.slice(2)) seen.add(c);
    }
    // Every symbol is drawn: the alphabet is used in full.
    assert.equal(seen.size, REFERENCE_ALPHABET.length);
  });

  test('bytes that would bias the draw are skipped, not folded onto the first symbols', () => {
    const bytes = [255, 254, 248, 0, 30, 31, 247, 62, 1, 2, 3, 4, 5, 6, 7, 8];
    let at = 0;
    const source = (size: number) => Buffer.from(Array.from({ length: size }, () => bytes[at++ % bytes.length] ?? 0));
    // 255, 254, 248 are redrawn; 0 → '2', 30 → 'Z', 31 → '2', 247 → 247 % 31 = 30 → 'Z', 62 → '2', 1 → '3', ...
    assert.equal(shortReference('DB', source), 'DB2Z2Z2345');
  });

  test('concurrent purchases of every kind each get their own reference', async (t) => {
    const app = await useTestApp(t, { seed: fixtureWith({ profiles: [agentProfile('usr_refs', { role: 'SuperAgent', live: 5000, test: 5000 })] }) });
    const buys = Array.from({ length: 60 }, (_, i) =>
      app.call('POST', '/api/v1/data-bundles/buy-single', {
        key: i % 2 ? liveKeyOf('usr_refs') : testKeyOf('usr_refs'),
        body: { operatorId: 'op_a', productId: 'prd_a', packageId: 'pkg_a_1gb', beneficiaryMsisdn: `0244${String(800100 + i)}` },
      }),
    );
    const bulks = Array.from({ length: 10 }, (_, i) =>
      app.call('POST', '/api/v1/data-bundles/buy-bulk', {
        key: liveKeyOf('usr_refs'),
        body: {
          operatorId: 'op_a',
          productId: 'prd_a',
          items: [0, 1].map((j) => ({ packageId: 'pkg_a_1gb', beneficiaryMsisdn: `0244${String(810100 + 2 * i + j)}` })),
        },
      }),
    );
    const checkers = Array.from({ length: 30 }, (_, i) =>
      app.call('POST', '/api/v1/result-checker/buy-single', {
        key: testKeyOf('usr_refs'),
        body: { packageId: 'rcp_bece', recipientPhone: `0244${String(820100 + i)}` },
      }),
    );
    const answers = await Promise.all([...buys, ...bulks, ...checkers]);
    for (const res of answers) assert.equal(res.status, 200, JSON.stringify(res.body));
    const references = answers.map((res) => String(res.body.data.shortReference));
    for (const reference of references) assert.match(reference, FORMAT);
    assert.equal(new Set(references).size, references.length);
    const stored = await app.database.db.selectFrom('orders').select('short_reference').execute();
    assert.equal(new Set(stored.map((o) => o.short_reference)).size, stored.length);
  });
});
