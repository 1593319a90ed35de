import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { UpstreamAnswer } from '../../src/providers/types.js';
import { UpstreamGate } from '../../src/worker/upstream-gate.js';

/**
 * The worker's per-upstream gate (docs/live-delivery.md, "One delivery, many attempts"): never more
 * than PROVIDER_CONCURRENCY calls in flight to one upstream, whatever order calls start and end in.
 */
const ACCEPTED: UpstreamAnswer = { class: 'accepted', transactionId: null };

describe('upstream gate: calls in flight', () => {
  test('a call starting as another ends does not slip in beside the waiter the ending call wakes', async () => {
    const gate = new UpstreamGate({ concurrency: 1, failures: 5, coolMs: 1000 });
    let inFlight = 0;
    let most = 0;
    const enter = () => {
      inFlight++;
      most = Math.max(most, inFlight);
    };
    const quick = async () => {
      enter();
      await new Promise((resolve) => setImmediate(resolve));
      inFlight--;
      return ACCEPTED;
    };
    let release = () => {};
    const first = gate.call('dtone', () => {
      enter();
      return new Promise<UpstreamAnswer>((resolve) => {
        release = () => {
          inFlight--;
          resolve(ACCEPTED);
        };
      });
    });
    const waiting = gate.call('dtone', quick);
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(gate.inFlight('dtone'), 1);
    release();
    // Starts in the microtasks right after the first call's answer, before the waiter resumes.
    let late: Promise<UpstreamAnswer> | undefined;
    queueMicrotask(() => {
      late = gate.call('dtone', quick);
    });
    await Promise.all([first, waiting]);
    await late;
    assert.equal(most, 1);
    assert.equal(gate.inFlight('dtone'), 0);
  });

  test('hundreds of calls ending in any order: never more than the cap at once, every one made', async () => {
    const cap = 3;
    const gate = new UpstreamGate({ concurrency: cap, failures: 5, coolMs: 1000 });
    let inFlight = 0;
    let most = 0;
    let made = 0;
    const call = async (i: number) => {
      inFlight++;
      most = Math.max(most, inFlight);
      // Some end in a microtask, some after a macrotask: the order of ends and starts varies.
      if (i % 3 === 0) await Promise.resolve();
      else await new Promise((resolve) => setImmediate(resolve));
      inFlight--;
      made++;
      return ACCEPTED;
    };
    const chains = Array.from({ length: 20 }, async (_, chain) => {
      for (let i = 0; i < 15; i++) await gate.call('hubtel', () => call(chain + i));
    });
    await Promise.all(chains);
    assert.equal(made, 300);
    assert.ok(most <= cap, `${most} calls in flight at once`);
    assert.equal(most, cap);
    assert.equal(gate.inFlight('hubtel'), 0);
  });
});
