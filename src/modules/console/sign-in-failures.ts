import type { Clock } from '../../domain/types.js';
import type { AuditTrail } from '../audit/service.js';

const MINUTE = 60_000;
/** Addresses counted apart in one minute; failures from any more are counted together, in one row without an address. */
const MAX_ADDRESSES = 10_000;
const OTHER_ADDRESSES = '*';
/** Distinct e-mails named in one row. */
const MAX_EMAILS = 10;

interface Tally {
  /** null: the addresses beyond MAX_ADDRESSES, together. */
  address: string | null;
  minute: number;
  failures: number;
  emails: Set<string>;
  otherEmails: number;
  reasons: Map<string, number>;
}

/**
 * Failed sign-ins as the audit trail keeps them: one `staff.login` row (outcome `refused`) per
 * client address and clock minute, whose detail counts the failures, so that a flood of bad
 * passwords cannot fill the append-only trail (docs/console.md, "The audit trail"). Counted in
 * this process's memory and written once the minute is over (on the next failure or the periodic
 * check, whichever comes first) and when the app closes; a process killed in between loses at
 * most its last minute of counts.
 */
export class SignInFailures {
  private readonly open = new Map<string, Tally>();
  private timer: NodeJS.Timeout | null = null;
  private readonly writing = new Set<Promise<void>>();

  constructor(
    private readonly audit: AuditTrail,
    private readonly clock: Clock,
    private readonly onError: (error: unknown) => void,
    /** How often finished minutes are written when no new failure comes to write them. */
    private readonly checkEveryMs = 15_000,
  ) {}

  /**
   * Counts one refused sign-in: the address it came from, the e-mail tried and why it was refused.
   * Resolves once the minutes it found over are written.
   */
  async failed(address: string, email: string, reason: string): Promise<void> {
    const now = this.clock();
    const written = this.writeFinished(now);
    const minute = Math.floor(now / MINUTE) * MINUTE;
    const key = this.open.has(address) || this.open.size < MAX_ADDRESSES ? address : OTHER_ADDRESSES;
    let tally = this.open.get(key);
    if (!tally) {
      tally = {
        address: key === OTHER_ADDRESSES ? null : address,
        minute,
        failures: 0,
        emails: new Set(),
        otherEmails: 0,
        reasons: new Map(),
      };
      this.open.set(key, tally);
    }
    tally.failures++;
    if (tally.emails.has(email) || tally.emails.size < MAX_EMAILS) tally.emails.add(email);
    else tally.otherEmails++;
    tally.reasons.set(reason, (tally.reasons.get(reason) ?? 0) + 1);
    this.timer ??= setInterval(() => void this.writeFinished(this.clock()), this.checkEveryMs).unref();
    await written;
  }

  /** Writes every count, the current minute's too (the app is closing), and waits for the writes. */
  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    void this.write([...this.open.keys()]);
    await Promise.all(this.writing);
  }

  /** Writes the counts of minutes that are over; resolves when they are written. */
  private async writeFinished(now: number): Promise<void> {
    const current = Math.floor(now / MINUTE) * MINUTE;
    const rows = this.write([...this.open].filter(([, tally]) => tally.minute < current).map(([key]) => key));
    if (this.open.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
    await Promise.all(rows);
  }

  /** Starts writing the rows of `keys` (each is removed from the open counts at once). */
  private write(keys: string[]): Promise<void>[] {
    const rows: Promise<void>[] = [];
    for (const key of keys) {
      const tally = this.open.get(key);
      if (!tally) continue;
      this.open.delete(key);
      const detail = {
        failures: tally.failures,
        minute: new Date(tally.minute).toISOString(),
        emails: [...tally.emails],
        ...(tally.otherEmails > 0 ? { otherEmails: tally.otherEmails } : {}),
        reasons: Object.fromEntries(tally.reasons),
      };
      const row = this.audit
        .refused({ staffId: null, name: 'anonymous', address: tally.address }, 'staff.login', { type: 'staff', id: null }, detail)
        .catch(this.onError)
        .finally(() => this.writing.delete(row));
      this.writing.add(row);
      rows.push(row);
    }
    return rows;
  }
}
