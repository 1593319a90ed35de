import type { Database } from '../../db/connection.js';
import type { Caller, Owner } from '../../domain/caller.js';
import { conflict, invalid, notFound } from '../../domain/errors.js';
import { EVENT_TYPES, isEventType } from '../../domain/event-types.js';
import type { Clock } from '../../domain/types.js';
import { newId } from '../../lib/ids.js';
import type { Sealer } from '../../lib/sealer.js';
import type { Actor, AuditTrail } from '../audit/service.js';
import type { IdempotencyService } from '../idempotency/service.js';
import type { WebhookRepository } from './repository.js';
import {
  MAX_DESCRIPTION_LENGTH,
  MAX_ENDPOINTS_PER_OWNER,
  type CreateEndpointBody,
  type WebhookEndpoint,
  type WebhookEndpointWithSecret,
} from './schemas.js';
import { newWebhookSecret } from './signing.js';
import { checkResolvedAddresses, parseEndpointUrl, UrlRefused, type UrlRules } from './url-policy.js';

const CODE = 'WEBHOOK_ENDPOINT_INVALID';
/** After a rotation the previous secret keeps signing this long, so receivers can switch over. */
export const ROTATION_OVERLAP_MS = 24 * 3_600_000;
/** Why an endpoint the partner deleted is disabled: staff do not enable it again (./staff.ts). */
export const DELETED_BY_PARTNER = 'deleted by the partner';

interface EndpointRow {
  id: string;
  url: string;
  description: string | null;
  status: 'enabled' | 'disabled';
  disabled_reason: string | null;
  created_at: number;
  events: string[];
}

export function toEndpointView(e: EndpointRow): WebhookEndpoint {
  return {
    _id: e.id,
    url: e.url,
    events: e.events,
    description: e.description,
    status: e.status,
    disabledReason: e.disabled_reason,
    createdAt: Number(e.created_at),
  };
}

/** The event types an endpoint asks for: known types without repeats, or ['*'] alone. */
function subscribedTypes(events: readonly string[]): string[] {
  if (events.length === 0) throw invalid(CODE, 'events must name at least one event type, or "*" for every type');
  const wanted = [...new Set(events.map((e) => e.trim()))];
  if (wanted.includes('*')) {
    if (wanted.length > 1) throw invalid(CODE, 'events is either ["*"] or a list of event types, not both');
    return ['*'];
  }
  const unknown = wanted.filter((e) => !isEventType(e));
  if (unknown.length > 0) {
    throw invalid(
      CODE,
      `unknown event type ${unknown.map((u) => JSON.stringify(u)).join(', ')}; one of ${EVENT_TYPES.join(', ')}, or "*"`,
    );
  }
  return wanted.sort();
}

/** A partner's webhook endpoints (docs/webhooks.md, "Endpoints"). Secrets are sealed at rest. */
export class WebhookEndpointService {
  constructor(
    private readonly database: Database,
    private readonly webhooks: WebhookRepository,
    private readonly secrets: Sealer,
    private readonly rules: UrlRules,
    private readonly idempotency: IdempotencyService,
    private readonly audit: AuditTrail,
    private readonly clock: Clock,
  ) {}

  async create(owner: Caller, body: CreateEndpointBody): Promise<WebhookEndpointWithSecret> {
    const url = await this.checkedUrl(owner, body.url);
    const events = subscribedTypes(body.events);
    const description = body.description?.trim() || null;
    if (description !== null && description.length > MAX_DESCRIPTION_LENGTH) {
      throw invalid(CODE, `description must be at most ${MAX_DESCRIPTION_LENGTH} characters`);
    }
    const secret = newWebhookSecret();
    const id = newId('we');
    return this.database.unit(async (tx) => {
      await this.webhooks.lockOwner(tx, owner.profileId);
      if ((await this.webhooks.countEnabled(tx, owner)) >= MAX_ENDPOINTS_PER_OWNER) {
        throw conflict(CODE, `at most ${MAX_ENDPOINTS_PER_OWNER} enabled endpoints per profile and mode; delete one first`);
      }
      const now = this.clock();
      await this.webhooks.insertEndpoint(tx, {
        id,
        profileId: owner.profileId,
        mode: owner.mode,
        url: url.href,
        description,
        sealedSecret: this.secrets.seal(secret),
        events,
        now,
      });
      const created = {
        ...toEndpointView({ id, url: url.href, description, status: 'enabled', disabled_reason: null, created_at: now, events }),
        secret,
      };
      // The answer kept with the caller's Idempotency-Key (sealed: it holds the secret), written with the endpoint.
      this.idempotency.succeeded(tx, owner, created);
      return created;
    });
  }

  async list(owner: Owner): Promise<WebhookEndpoint[]> {
    return (await this.webhooks.listOwned(owner)).map(toEndpointView);
  }

  /** DELETE: the endpoint is disabled (kept, with its deliveries' history); pending deliveries stop. */
  async remove(owner: Owner, endpointId: string): Promise<WebhookEndpoint> {
    await this.owned(owner, endpointId);
    await this.database.unit((tx) => this.webhooks.disable(tx, endpointId, DELETED_BY_PARTNER, this.clock()));
    return this.one(owner, endpointId);
  }

  /** A new secret; the old one keeps signing (a second signature) for ROTATION_OVERLAP_MS. */
  async rotateSecret(owner: Caller, endpointId: string): Promise<WebhookEndpointWithSecret> {
    const endpoint = await this.owned(owner, endpointId);
    const secret = newWebhookSecret();
    return this.database.unit(async (tx) => {
      const locked = await this.webhooks.lockEndpoint(tx, endpointId);
      if (!locked) throw notFound('WEBHOOK_ENDPOINT_NOT_FOUND', `Webhook endpoint ${endpointId} not found`);
      const now = this.clock();
      await this.webhooks.rotateSecret(tx, endpointId, {
        sealedSecret: this.secrets.seal(secret),
        previousSealed: locked.secret,
        previousUntil: now + ROTATION_OVERLAP_MS,
        now,
      });
      const rotated = { ...toEndpointView({ ...endpoint, ...locked }), secret };
      this.idempotency.succeeded(tx, owner, rotated);
      return rotated;
    });
  }

  /** Staff: every endpoint of a profile, both modes (`cli webhooks list`). */
  async listForStaff(profileId: string) {
    return (await this.webhooks.listForProfile(profileId)).map((e) => ({
      ...toEndpointView(e),
      mode: e.mode,
      failingSince: e.failing_since === null ? null : Number(e.failing_since),
    }));
  }

  /** Staff: a profile's latest deliveries whose last attempt failed (`cli webhooks failures`). */
  async recentFailures(profileId: string, limit: number) {
    return (await this.webhooks.recentFailures(profileId, limit)).map((d) => ({
      deliveryId: Number(d.id),
      eventId: d.event_id,
      eventType: d.event_type,
      endpointId: d.endpoint_id,
      url: d.url,
      mode: d.mode,
      status: d.status,
      attempts: Number(d.attempts),
      lastAttemptAt: d.last_attempt_at === null ? null : Number(d.last_attempt_at),
      lastStatusCode: d.last_status_code,
      lastError: d.last_error,
    }));
  }

  /** Staff: disable any endpoint (`cli webhooks disable`). Refused when it is disabled already. */
  async disableForStaff(actor: Actor, endpointId: string, given: string): Promise<Owner> {
    const reason = given.trim();
    if (reason === '') throw invalid('INVALID_REQUEST', 'give a reason: the partner sees it on the endpoint');
    const endpoint = await this.webhooks.findEndpoint(endpointId);
    if (!endpoint) throw notFound('WEBHOOK_ENDPOINT_NOT_FOUND', `no webhook endpoint ${endpointId}`);
    return this.database.unit(async (tx) => {
      if (!(await this.webhooks.disable(tx, endpointId, reason, this.clock())))
        throw conflict('INVALID_REQUEST', `webhook endpoint ${endpointId} is already disabled`);
      const owner = { profileId: endpoint.profile_id, mode: endpoint.mode };
      await this.audit.record(tx, actor, 'webhook.disable', { type: 'webhook_endpoint', id: endpointId }, { reason, ...owner });
      return owner;
    });
  }

  private async checkedUrl(owner: Owner, text: string): Promise<URL> {
    try {
      const url = parseEndpointUrl(text, owner.mode, this.rules);
      await checkResolvedAddresses(url, this.rules);
      return url;
    } catch (error) {
      if (error instanceof UrlRefused) throw invalid(CODE, error.message);
      throw error;
    }
  }

  private async owned(owner: Owner, endpointId: string) {
    const [endpoint] = await this.webhooks.listOwned(owner, endpointId);
    if (!endpoint) throw notFound('WEBHOOK_ENDPOINT_NOT_FOUND', `Webhook endpoint ${endpointId} not found`);
    return endpoint;
  }

  private async one(owner: Owner, endpointId: string): Promise<WebhookEndpoint> {
    return toEndpointView(await this.owned(owner, endpointId));
  }
}
