import { field, numberField, stringField } from '../http.js';

/**
 * Hubtel Commission Services as it speaks on the wire (docs/upstream-apis.md): the data
 * service ids, the response codes, and tolerant readers of its bodies. Shared by the adapter and
 * the simulator, so that both read and write the same shapes.
 */

/** The data bundle services of Appendix A, by network. */
export const HUBTEL_DATA_SERVICES = {
  mtn: 'b230733cd56b4a0fad820e39f66bc27c',
  telecel: 'fa27127ba039455da04a2ac8a1613e00',
  at: '06abd92da459428496967612463575ca',
} as const;

/** Codes Hubtel writes in a body's ResponseCode (responseCode on the status endpoint). */
export const HUBTEL_CODES = {
  success: '0000',
  pending: '0001',
  stateUnknown: '0005',
  failed: '2000',
  failedWithReason: '2001',
  invalidRequest: '4000',
  validation: '4010',
  insufficientBalance: '4075',
  authDenied: '4101',
  permissionDenied: '4103',
} as const;

/** One entry of the bundle list for a number: `Value` goes into Extradata.bundle, `Amount` (GHS) into Amount. */
export interface HubtelBundle {
  display: string;
  value: string;
  /** GHS, as Hubtel writes it. */
  amount: number;
}

/** Hubtel names its fields in PascalCase on Commission Services and camelCase on the status endpoint: read both. */
export function hubtelField(body: unknown, name: string): unknown {
  const pascal = name.charAt(0).toUpperCase() + name.slice(1);
  const camel = name.charAt(0).toLowerCase() + name.slice(1);
  return field(body, pascal) ?? field(body, camel);
}

export function hubtelString(body: unknown, name: string): string | null {
  const pascal = name.charAt(0).toUpperCase() + name.slice(1);
  const camel = name.charAt(0).toLowerCase() + name.slice(1);
  const value = stringField(body, pascal) ?? stringField(body, camel);
  return value === null ? null : value.trim();
}

export function hubtelNumber(body: unknown, name: string): number | null {
  const pascal = name.charAt(0).toUpperCase() + name.slice(1);
  const camel = name.charAt(0).toLowerCase() + name.slice(1);
  return numberField(body, pascal) ?? numberField(body, camel);
}

/** The body's response code, or null when it has none. */
export function responseCodeOf(body: unknown): string | null {
  const code = hubtelString(body, 'responseCode');
  return code === null || code === '' ? null : code;
}

/** The body's Message (or message), trimmed, or null. */
export function messageOf(body: unknown): string | null {
  const message = hubtelString(body, 'message');
  return message === null || message === '' ? null : message;
}

/**
 * The bundle list of a query answer, or null when `Data` is not a list. Entries without a Value or
 * an Amount are left out; Values are kept as Hubtel wrote them (Telecel's carry spaces).
 */
export function readBundleList(body: unknown): HubtelBundle[] | null {
  const data = hubtelField(body, 'data');
  if (!Array.isArray(data)) return null;
  const bundles: HubtelBundle[] = [];
  for (const entry of data as unknown[]) {
    const value = stringField(entry, 'Value') ?? stringField(entry, 'value');
    const amount = numberField(entry, 'Amount') ?? numberField(entry, 'amount');
    if (value === null || amount === null) continue;
    bundles.push({ display: stringField(entry, 'Display') ?? stringField(entry, 'display') ?? '', value, amount });
  }
  return bundles;
}
