import { ulid } from 'ulid';

/**
 * The reference an upstream's idempotency field receives (Reloadly customIdentifier, DT One
 * external_id, Hubtel ClientReference): "PA" and a ULID, 28 capitals and digits (at most 36 letters
 * and digits, docs/upstreams.md §3), unique per attempt and time-ordered.
 */
export function newAttemptReference(): string {
  return `PA${ulid()}`;
}
