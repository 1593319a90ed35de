import { newUlid } from '../../lib/ids.js';

/**
 * The reference an upstream's idempotency field receives (Reloadly customIdentifier, DT One
 * external_id, Hubtel ClientReference): "PA" and a ULID, 28 capitals and digits (at most 36 letters
 * and digits, docs/live-delivery.md, "One delivery, many attempts"), unique per attempt and time-ordered. The ULID comes from the
 * pooled source of src/lib/ids.ts: ulid's own draws one getRandomValues per character (~80 µs a
 * reference under load, 4% of the worker's CPU in a profile).
 */
export function newAttemptReference(): string {
  return `PA${newUlid()}`;
}
