import type { StaffRole } from '../../../db/schema.js';
import type { Mode } from '../../../domain/types.js';
import type { DeliveryDetail, FailingPage, StaffDelivery, StaffEndpoint } from '../../webhooks/staff.js';
import { mayAct } from '../service.js';
import { at } from './frame.js';

export interface DeliveryLine {
  id: string;
  href: string;
  eventType: string;
  eventId: string;
  /** pending, retrying, succeeded, failed. */
  state: string;
  attempts: string;
  /** `HTTP 500`, the error, or a dash. */
  outcome: string;
  lastAttempt: string;
  nextAttempt: string;
}

export interface EndpointLine {
  id: string;
  url: string;
  events: string;
  description: string;
  /** `enabled`, or `disabled: <why>`. */
  status: string;
  enabled: boolean;
  /** The partner deleted it: staff do not enable it again. */
  deletedByPartner: boolean;
  created: string;
  failingSince: string;
  /** `3 delivered · 1 failing` (the last 7 days). */
  recent: string;
  /** `<when> HTTP 200`, or a dash. */
  lastResult: string;
  deliveries: DeliveryLine[];
}

export interface PartnerWebhooksView {
  profileId: string;
  name: string;
  mode: Mode;
  endpoints: EndpointLine[];
  canRedeliver: boolean;
  canManage: boolean;
}

export interface FailingLine extends DeliveryLine {
  partnerName: string;
  partnerHref: string;
  url: string;
  endpointEnabled: boolean;
}

export interface FailingWebhooksView {
  mode: Mode;
  lines: FailingLine[];
  /** The next page's address, or empty on the last page. */
  older: string;
  canRedeliver: boolean;
}

export interface DeliveryDetailView {
  line: DeliveryLine;
  partnerName: string;
  partnerHref: string;
  mode: string;
  url: string;
  endpointId: string;
  /** `enabled`, or `disabled: <why>`. */
  endpointStatus: string;
  eventCreated: string;
  /** Why it cannot be redelivered (a disabled endpoint, an expired event), or empty. */
  blocked: string;
  canRedeliver: boolean;
  attempts: { at: string; status: string; error: string; duration: string }[];
}

const outcome = (d: { lastStatusCode: number | null; lastError: string | null }) =>
  d.lastStatusCode !== null ? `HTTP ${d.lastStatusCode}` : (d.lastError ?? '—');

const endpointStatus = (status: string, reason: string | null) => (status === 'enabled' ? 'enabled' : `disabled: ${reason ?? 'no reason given'}`);

const partnerHref = (profileId: string, mode: string) => `/console/partners/${encodeURIComponent(profileId)}/webhooks?mode=${mode}`;

export function deliveryLine(d: StaffDelivery): DeliveryLine {
  return {
    id: String(d.deliveryId),
    href: `/console/webhooks/deliveries/${d.deliveryId}`,
    eventType: d.eventType,
    eventId: d.eventId,
    state: d.state,
    attempts: String(d.attempts),
    outcome: d.attempts === 0 ? '—' : outcome(d),
    lastAttempt: at(d.lastAttemptAt),
    nextAttempt: at(d.nextAttemptAt),
  };
}

export function partnerWebhooksView(
  partner: { id: string; name: string },
  mode: Mode,
  endpoints: StaffEndpoint[],
  role: StaffRole,
  deletedByPartner: string,
): PartnerWebhooksView {
  return {
    profileId: partner.id,
    name: partner.name,
    mode,
    endpoints: endpoints.map((e) => ({
      id: e._id,
      url: e.url,
      events: e.events.join(', '),
      description: e.description ?? '',
      status: endpointStatus(e.status, e.disabledReason),
      enabled: e.status === 'enabled',
      deletedByPartner: e.disabledReason === deletedByPartner,
      created: at(e.createdAt),
      failingSince: e.failingSince === null ? '' : at(e.failingSince),
      recent: `${e.recent.delivered} delivered · ${e.recent.failing} failing`,
      lastResult:
        e.lastAttempt === null
          ? '—'
          : `${at(e.lastAttempt.attemptedAt)} ${outcome({ lastStatusCode: e.lastAttempt.statusCode, lastError: e.lastAttempt.error })}`,
      deliveries: e.deliveries.map(deliveryLine),
    })),
    canRedeliver: mayAct(role, 'operator'),
    canManage: mayAct(role, 'admin'),
  };
}

export function failingWebhooksView(page: FailingPage, role: StaffRole): FailingWebhooksView {
  return {
    mode: page.mode,
    lines: page.deliveries.map((d) => ({
      ...deliveryLine(d),
      partnerName: d.partnerName,
      partnerHref: partnerHref(d.profileId, page.mode),
      url: d.url,
      endpointEnabled: d.endpointStatus === 'enabled',
    })),
    older: page.next === null ? '' : `/console/webhooks?mode=${page.mode}&before=${page.next}`,
    canRedeliver: mayAct(role, 'operator'),
  };
}

export function deliveryDetailView(d: DeliveryDetail, role: StaffRole): DeliveryDetailView {
  const blocked =
    d.endpointStatus !== 'enabled'
      ? 'The endpoint is disabled: an admin enables it first (on the partner’s webhooks page), then it can be redelivered.'
      : d.expired
        ? 'The event is past its retention (EVENT_RETENTION_DAYS): it is not redelivered, and the worker deletes it soon.'
        : '';
  return {
    line: deliveryLine(d),
    partnerName: d.partnerName,
    partnerHref: partnerHref(d.profileId, d.mode),
    mode: d.mode,
    url: d.url,
    endpointId: d.endpointId,
    endpointStatus: endpointStatus(d.endpointStatus, d.disabledReason),
    eventCreated: at(d.eventCreatedAt),
    blocked,
    canRedeliver: mayAct(role, 'operator'),
    attempts: d.attemptLog.map((a) => ({
      at: at(a.attemptedAt),
      status: a.statusCode === null ? '—' : String(a.statusCode),
      error: a.error ?? '',
      duration: `${a.durationMs} ms`,
    })),
  };
}
