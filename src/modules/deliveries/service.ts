import type { Database } from '../../db/connection.js';
import type { AttemptStatus, OrderItemRow, OrderRow, ProviderAttemptRow } from '../../db/schema.js';
import type { Tx } from '../../db/unit-of-work.js';
import { conflict, invalid, notFound } from '../../domain/errors.js';
import type { Clock, Mode } from '../../domain/types.js';
import { formatGhs } from '../../lib/money.js';
import type { CallbackSubject, ProviderName, Route, UpstreamAnswer } from '../../providers/types.js';
import type { Actor, AuditTrail } from '../audit/service.js';
import type { EventRecorder } from '../events/service.js';
import { countItems, orderStateAfter, type ItemCounts } from '../orders/order-state.js';
import type { ItemWithOrder, OrderRepository } from '../orders/repository.js';
import { toOrderView, toRecipientView } from '../orders/views.js';
import { heldOrderType, postings } from '../wallet/postings.js';
import type { WalletRepository } from '../wallet/repository.js';
import { newAttemptReference } from './attempt-reference.js';
import { routeOf, type AttemptRepository, type AttentionRow, type NewAttempt } from './attempts-repository.js';
import type { ClaimedRow, OutboxRepository } from './outbox-repository.js';
import type { PackageRouteRepository } from '../package-routes/repository.js';
import { PARTNER_MESSAGES, partnerMessageOf } from './partner-messages.js';
import { chooseRoute } from './routing.js';

/**
 * Delivering a data bundle after the purchase (docs/live-delivery.md, docs/order-lifecycle.md): which
 * upstream gets which attempt, what each answer means, and the settlement. The worker schedules and
 * calls; this module decides. Each decision is one unit of work that locks the parent order first
 * (one lock order everywhere: order, item, wallet, outbox), so concurrent settlements of one bulk
 * order see each other's counts.
 *
 * The rule that keeps a bundle from being delivered twice: an attempt whose outcome is unknown is
 * looked up at the upstream that may have it, by its reference, and only a lookup proving it absent
 * lets the delivery be submitted again: to the next usable route at once (a new attempt), or, with
 * none, to the same upstream under the same reference at most three more times (routing.ts).
 * Another route is tried only after a refusal, a failure or a proof of absence: nothing was delivered.
 *
 * What the partner reads of a failure is one of the sentences of partner-messages.ts; the
 * upstream's own answer stays on the attempt, for staff.
 */

export type ProviderOutcome = { status: 'completed' } | { status: 'failed'; errorMessage: string };

export interface Settlement {
  itemId: string;
  /** The item's order (the caller has read the item; an item never changes order). */
  orderId: string;
  /** The item's charge attempt (order_items.attempt). */
  attempt: number;
  outcome: ProviderOutcome;
  now: number;
}

/** One call the worker is to make for a delivery. */
export interface AttemptCall {
  call: 'submit' | 'check' | 'lookup';
  reference: string;
  provider: ProviderName;
  route: Route;
  transactionId: string | null;
  createdAt: number;
  /**
   * The attempt's cost and submission time as the plan read them (null for a new attempt). Only
   * this step's answer can change them while the worker holds the row, so recording the answer need
   * not read the attempt again; a change by anyone else moves its status, and the guarded update
   * then finds it stale.
   */
  cost: number | null;
  submittedAt: number | null;
  /** How many lookups have proved the attempt absent so far (0 for a new attempt). */
  absences: number;
  itemId: string;
  orderId: string;
  itemAttempt: number;
  msisdn: string;
  packageId: string;
  /** Pesewas the partner paid for this delivery. */
  price: number;
  mode: Mode;
}

export type DeliveryPlan =
  | { kind: 'call'; attempt: AttemptCall }
  /** Nothing to call before `until` (upstreams resting behind their breakers, a retry later). */
  | { kind: 'wait'; until: number }
  /** The item needs no more calls (settled, or settled now for lack of a route): drop its row. */
  | { kind: 'done'; settled?: 'failed'; mode: Mode };

export interface PlanInput {
  row: ClaimedRow;
  item: ItemWithOrder;
}

/** What the delivery module needs to know of the upstreams now. */
export interface UpstreamState {
  enabled: ReadonlySet<ProviderName>;
  /** Upstreams skipped for new submissions until the time given (their breaker is open). */
  resting: ReadonlyMap<ProviderName, number>;
}

export interface AnswerRecord {
  attempt: AttemptCall;
  answer: UpstreamAnswer;
  outboxId: number;
  workerId: string;
  /** Next status check of an accepted attempt when the upstream gives no hint. */
  checkEveryMs: number;
  /** Delay before asking again after an answer that proved nothing (the worker's backoff). */
  retryInMs: number;
}

/** What recording an answer did, for the worker's logs and metrics. */
export type AnswerEffect =
  | { kind: 'settled'; outcome: 'completed' | 'failed' }
  | { kind: 'following'; nextAt: number }
  | { kind: 'next-route' }
  /** A lookup proved the attempt absent: the next step takes the next route, or submits it again. */
  | { kind: 'absent' }
  | { kind: 'retry'; nextAt: number }
  /** This worker's lease on the row ended (another worker has it), or the attempt had already moved on. */
  | { kind: 'stale' };

export interface AttentionItem extends AttentionRow {
  /** Milliseconds since the attempt was made. */
  unknownForMs: number;
}

/** Staff settle an open delivery by hand: `note` for staff only, `partnerMessage` what the partner reads of a failure. */
export interface StaffResolutionRequest {
  order: string;
  msisdn?: string;
  outcome: 'completed' | 'failed';
  note: string;
  partnerMessage?: string;
}

/** The longest partner message staff may write (the console field's maxlength). */
export const PARTNER_MESSAGE_MAX = 300;

export interface StaffResolution {
  orderId: string;
  shortReference: string;
  itemId: string;
  msisdn: string;
  outcome: 'completed' | 'failed';
  reference: string | null;
}

export interface StuckRetry {
  orderId: string;
  shortReference: string;
  /** Deliveries open past the threshold. */
  stuck: number;
  /** Of those, how many had lost their outbox row and got one again. */
  requeued: number;
  /** Of those, how many outbox rows were made due now (rows a worker holds are left alone). */
  hurried: number;
}

/** Attempt statuses from which an answer may still move the attempt. */
const UNANSWERED: AttemptStatus[] = ['pending', 'unknown', 'absent'];
const FOLLOWABLE: AttemptStatus[] = ['pending', 'unknown', 'absent', 'accepted'];

export class DeliveryService {
  constructor(
    private readonly database: Database,
    private readonly orders: OrderRepository,
    private readonly outbox: OutboxRepository,
    private readonly attempts: AttemptRepository,
    private readonly routes: PackageRouteRepository,
    private readonly wallets: WalletRepository,
    private readonly events: EventRecorder,
    private readonly audit: AuditTrail,
    /** An attempt unknown this long needs attention (DELIVERY_ATTENTION_AFTER_MS). */
    private readonly attentionAfterMs: number,
    private readonly clock: Clock,
  ) {}

  /** The deliveries of a claimed batch as they are now, in one read; missing items are absent. */
  async itemsOf(claimed: readonly ClaimedRow[]): Promise<Map<string, ItemWithOrder>> {
    const items = await this.orders.findItemsWithOrders(claimed.map((row) => row.order_item_id));
    return new Map(items.map((item) => [item.id, item]));
  }

  async item(itemId: string): Promise<ItemWithOrder | undefined> {
    return this.orders.findItemWithOrder(itemId);
  }

  /**
   * What to do next for each claimed delivery: follow its attempt where it is, or choose a route
   * and record a new attempt (all new attempts of the batch in one unit, before any call).
   */
  async plan(batch: readonly PlanInput[], upstreams: UpstreamState): Promise<Map<number, DeliveryPlan>> {
    const now = this.clock();
    const plans = new Map<number, DeliveryPlan>();
    const open = batch.filter(({ row, item }) => {
      if (item.status === 'pending' || item.status === 'processing') return true;
      plans.set(row.id, { kind: 'done', mode: item.mode });
      return false;
    });
    const attemptsByItem = await this.attempts.ofItems(open.map(({ item }) => ({ id: item.id, attempt: Number(item.attempt) })));
    const needRoute = open.filter(({ item }) => nextCall(attemptsByItem.get(item.id)?.at(-1)) === null);
    const routes = await this.routes.ofPackages(needRoute.filter(({ item }) => item.mode === 'live').map(({ item }) => item.package_id));

    const created: NewAttempt[] = [];
    const unroutable: { input: PlanInput; reason: string }[] = [];
    for (const input of open) {
      const { row, item } = input;
      const tried = attemptsByItem.get(item.id) ?? [];
      const last = tried.at(-1);
      const call = nextCall(last);
      if (last && call) {
        plans.set(row.id, { kind: 'call', attempt: callOf(item, { ...last, route: routeOf(last) }, call) });
        continue;
      }
      const choice = chooseRoute({
        mode: item.mode,
        // Stored positions are 0, 1, … in order (PackageRouteRepository.replace).
        routes: (routes.get(item.package_id) ?? []).map((route, position) => ({ route, position })),
        attempts: tried,
        enabled: upstreams.enabled,
        resting: upstreams.resting,
        now,
      });
      if (choice.kind === 'wait') {
        plans.set(row.id, { kind: 'wait', until: choice.until });
      } else if (choice.kind === 'resubmit') {
        // Only an attempt proved absent is submitted again (chooseRoute): under its own reference.
        if (!last) throw new Error(`no attempt of item ${item.id} to submit again`);
        plans.set(row.id, { kind: 'call', attempt: callOf(item, { ...last, route: routeOf(last) }, 'submit') });
      } else if (choice.kind === 'none') {
        unroutable.push({ input, reason: choice.reason });
        plans.set(row.id, { kind: 'done', settled: 'failed', mode: item.mode });
      } else {
        const attempt: NewAttempt = {
          reference: newAttemptReference(),
          itemId: item.id,
          itemAttempt: Number(item.attempt),
          routePosition: choice.position,
          route: choice.route,
          now,
        };
        created.push(attempt);
        plans.set(row.id, {
          kind: 'call',
          attempt: callOf(
            item,
            {
              reference: attempt.reference,
              provider: choice.route.provider,
              route: choice.route,
              provider_transaction_id: null,
              created_at: now,
              cost: null,
              submitted_at: null,
              absences: 0,
            },
            'submit',
          ),
        });
      }
    }
    if (created.length > 0) await this.database.unit(async (tx) => this.attempts.insert(tx, created));
    for (const { input: { row, item }, reason } of unroutable) {
      const settled = await this.settle({ itemId: item.id, orderId: item.order_id, attempt: Number(item.attempt), outcome: { status: 'failed', errorMessage: reason }, now });
      if (!settled) plans.set(row.id, { kind: 'done', mode: item.mode });
    }
    return plans;
  }

  /**
   * Records one answer of an upstream and decides what follows (docs/live-delivery.md, "One delivery, many attempts"), in one unit:
   * accepted → follow it; completed → settle; refused or failed → settle failed for a number
   * problem, else the next route; unknown → ask the same upstream again later; absent (a lookup
   * proved it never arrived) → the next step chooses: the next usable route, or the same reference again.
   */
  async record(r: AnswerRecord): Promise<AnswerEffect> {
    const { attempt, answer } = r;
    const now = this.clock();
    return this.database.unit(async (tx): Promise<AnswerEffect> => {
      // An acceptance moves no money: it needs the order's lock, not its row.
      if (answer.class === 'accepted') return this.follow(tx, r, answer, now);
      const order = await this.orders.lockWithWallet(tx, attempt.orderId);
      if (!order) return { kind: 'stale' };
      switch (answer.class) {
        case 'completed': {
          const firstAnswer = attempt.submittedAt === null;
          const moved = await this.attempts.change(tx, attempt.reference, FOLLOWABLE, {
            status: 'completed',
            // Written only when new: the column is indexed (callbacks find attempts by it).
            ...(answer.transactionId !== attempt.transactionId ? { transactionId: answer.transactionId } : {}),
            cost: answer.cost ?? attempt.cost ?? attempt.route.cost ?? null,
            message: answer.message ?? null,
            resolvedAt: now,
            ...(firstAnswer ? { submittedAt: now } : {}),
          });
          if (!moved) return { kind: 'stale' };
          if (firstAnswer) {
            // Completed at its first answer that the upstream had it (a lookup after a crash or a
            // timeout, or an upstream that completes at once): the item takes the reference and the
            // item and order their submission time, as an acceptance would have given them.
            await this.orders.markItemRouted(tx, { itemId: attempt.itemId, attempt: attempt.itemAttempt, providerRef: attempt.reference, now });
            this.orders.markOrderSubmitted(tx, order.id, now);
          }
          const settled = await this.settleLocked(tx, order, { itemId: attempt.itemId, orderId: order.id, attempt: attempt.itemAttempt, outcome: { status: 'completed' }, now });
          return settled ? { kind: 'settled', outcome: 'completed' } : { kind: 'stale' };
        }
        case 'refused':
        case 'failed': {
          const moved = await this.attempts.change(tx, attempt.reference, FOLLOWABLE, {
            status: answer.class,
            ...(answer.class === 'failed' && answer.transactionId !== attempt.transactionId ? { transactionId: answer.transactionId } : {}),
            message: answer.message,
            problem: answer.problem,
            resolvedAt: now,
            ...(answer.class === 'refused' && answer.retryAfterMs !== undefined ? { retryAt: now + answer.retryAfterMs } : {}),
          });
          if (!moved) return { kind: 'stale' };
          if (answer.problem === 'number') {
            const settled = await this.settleLocked(tx, order, {
              itemId: attempt.itemId,
              orderId: order.id,
              attempt: attempt.itemAttempt,
              outcome: { status: 'failed', errorMessage: partnerMessageOf(attempt.provider, answer) },
              now,
            });
            return settled ? { kind: 'settled', outcome: 'failed' } : { kind: 'stale' };
          }
          // Nothing was delivered: the next step chooses the next route (or fails the delivery).
          await this.outbox.reschedule(tx, r.outboxId, r.workerId, { runAt: now, error: null });
          return { kind: 'next-route' };
        }
        case 'absent': {
          if (attempt.call !== 'lookup') return this.askAgain(tx, r, now, 'the upstream does not know the transaction it gave us');
          if (!(await this.outbox.reschedule(tx, r.outboxId, r.workerId, { runAt: now, error: null }))) return { kind: 'stale' };
          const moved = await this.attempts.change(tx, attempt.reference, UNANSWERED, {
            status: 'absent',
            message: answer.message ?? 'not found at the upstream',
            absences: attempt.absences + 1,
          });
          return moved ? { kind: 'absent' } : { kind: 'stale' };
        }
        case 'unknown':
          return this.askAgain(tx, r, now, answer.message);
      }
    });
  }

  /** The upstream has the attempt and has not finished: follow it (the next status check), in the order's lock. */
  private async follow(tx: Tx, r: AnswerRecord, answer: Extract<UpstreamAnswer, { class: 'accepted' }>, now: number): Promise<AnswerEffect> {
    const { attempt } = r;
    await this.orders.holdLock(tx, attempt.orderId);
    const nextAt = now + Math.max(answer.checkAfterMs ?? r.checkEveryMs, 10);
    if (!(await this.outbox.markSubmitted(tx, r.outboxId, r.workerId, nextAt))) return { kind: 'stale' };
    // Still in flight at a status check: only the next check to schedule.
    if (attempt.call === 'check') return { kind: 'following', nextAt };
    const moved = await this.attempts.change(tx, attempt.reference, FOLLOWABLE, {
      status: 'accepted',
      transactionId: answer.transactionId,
      ...(answer.cost === undefined ? {} : { cost: answer.cost }),
      submittedAt: now,
    });
    if (!moved) return { kind: 'stale' };
    await this.orders.markItemRouted(tx, { itemId: attempt.itemId, attempt: attempt.itemAttempt, providerRef: attempt.reference, now });
    this.orders.markOrderSubmitted(tx, attempt.orderId, now);
    return { kind: 'following', nextAt };
  }

  /** An answer that proves nothing: the attempt stays where it is (unknown unless the upstream has it), asked again later. */
  private async askAgain(tx: Tx, r: AnswerRecord, now: number, message: string): Promise<AnswerEffect> {
    const nextAt = now + r.retryInMs;
    if (!(await this.outbox.reschedule(tx, r.outboxId, r.workerId, { runAt: nextAt, error: message }))) return { kind: 'stale' };
    await this.attempts.change(tx, r.attempt.reference, ['pending', 'absent'], { status: 'unknown', message });
    return { kind: 'retry', nextAt };
  }

  /**
   * A callback from an upstream is a wake-up, never the verdict (docs/live-delivery.md, "Callbacks"): the status
   * check of the attempt it names becomes due now. False when no attempt of ours has that name.
   */
  async wake(provider: ProviderName, subject: CallbackSubject): Promise<boolean> {
    const attempt = await this.attempts.find(provider, subject);
    if (!attempt) return false;
    await this.database.unit(async (tx) => {
      const rows = await this.outbox.rowsFor(tx, [attempt.order_item_id]);
      const row = rows.get(attempt.order_item_id);
      if (row) await this.outbox.runNow(tx, [row.id], this.clock());
    });
    return true;
  }

  /** Deliveries whose attempt has been unknown longer than DELIVERY_ATTENTION_AFTER_MS, oldest first. */
  async needingAttention(): Promise<AttentionItem[]> {
    const now = this.clock();
    const rows = await this.attempts.unknownSince(now - this.attentionAfterMs);
    return rows.map((row) => ({ ...row, unknownForMs: now - row.created_at }));
  }

  /** The provider attempts of an order, oldest first (staff views). */
  async attemptsOf(orderId: string): Promise<ProviderAttemptRow[]> {
    return this.attempts.ofOrder(orderId);
  }

  /**
   * An admin settles an open delivery by hand (docs/live-delivery.md, "One delivery, many attempts"): delivered
   * or failed, after checking with the upstream. Two texts: the internal note (required; staff only:
   * the attempt and the audit trail) and, for a failure, the partner's message (the order's
   * errorMessage; default PARTNER_MESSAGES.resolvedFailed). The note never reaches the partner. The
   * same settlement and events as the worker's, and the audit row, in one unit. A bulk order names
   * the recipient by number.
   */
  async resolveByStaff(actor: Actor, r: StaffResolutionRequest): Promise<StaffResolution> {
    const note = r.note.trim();
    if (note === '') throw invalid('INVALID_REQUEST', 'an internal note is required: what the upstream said, a ticket');
    const given = r.partnerMessage?.trim() ?? '';
    if (given !== '' && r.outcome === 'completed') {
      throw invalid('INVALID_REQUEST', 'a partner message is for a failed delivery only: a delivered one has no error message');
    }
    if (given.length > PARTNER_MESSAGE_MAX) throw invalid('INVALID_REQUEST', `the partner message is at most ${PARTNER_MESSAGE_MAX} characters`);
    const partnerMessage = given === '' ? PARTNER_MESSAGES.resolvedFailed : given;
    const found = await this.orders.findByIdOrReference(r.order);
    if (!found) throw notFound('ORDER_NOT_FOUND', `no order ${r.order}`);
    return this.database.unit(async (tx) => {
      const now = this.clock();
      const order = await this.orders.lockWithWallet(tx, found.id);
      if (!order) throw notFound('ORDER_NOT_FOUND', `no order ${r.order}`);
      const open = (await this.orders.itemsOf(tx, order.id)).filter(
        (i) => (i.status === 'pending' || i.status === 'processing') && (r.msisdn === undefined || i.beneficiary_msisdn === r.msisdn),
      );
      if (open.length === 0) throw conflict('INVALID_REQUEST', `order ${order.short_reference} has no open delivery${r.msisdn ? ` to ${r.msisdn}` : ''}`);
      const [item] = open;
      if (!item || open.length > 1) throw invalid('INVALID_REQUEST', `order ${order.short_reference} has ${open.length} open deliveries: name the recipient's number`);
      const attempts = await this.attempts.ofItemInUnit(tx, item.id, Number(item.attempt));
      const last = attempts.at(-1);
      if (last && FOLLOWABLE.includes(last.status)) {
        await this.attempts.change(tx, last.reference, FOLLOWABLE, {
          status: r.outcome,
          message: `resolved by ${actor.name}: ${note}`,
          resolvedAt: now,
          resolvedBy: actor.name,
          ...(r.outcome === 'completed' ? { cost: last.cost ?? routeOf(last).cost ?? null } : {}),
        });
      }
      const outcome: ProviderOutcome = r.outcome === 'completed' ? { status: 'completed' } : { status: 'failed', errorMessage: partnerMessage };
      const settled = await this.settleLocked(tx, order, { itemId: item.id, orderId: order.id, attempt: Number(item.attempt), outcome, now });
      if (!settled) throw conflict('INVALID_REQUEST', `the delivery to ${item.beneficiary_msisdn} was settled meanwhile`);
      const resolution: StaffResolution = {
        orderId: order.id,
        shortReference: order.short_reference,
        itemId: item.id,
        msisdn: item.beneficiary_msisdn,
        outcome: r.outcome,
        reference: last?.reference ?? null,
      };
      await this.audit.record(tx, actor, 'order.resolve', { type: 'order', id: order.id }, {
        recipient: item.beneficiary_msisdn,
        outcome: r.outcome,
        note,
        ...(r.outcome === 'failed' ? { partnerMessage } : {}),
        amount: formatGhs(Number(item.amount)),
        attempt: last?.reference ?? null,
        provider: last?.provider ?? null,
      });
      return resolution;
    });
  }

  /**
   * Staff retry of a stuck order: each delivery open longer than `olderThanMs` is made due at once
   * (a row a worker holds is left to it), and one that lost its outbox row gets one again (a poll
   * when the provider has it, else a submission; the provider call is idempotent either way).
   * Refused when no delivery of the order is stuck.
   */
  async retryStuck(actor: Actor, orderId: string, olderThanMs: number): Promise<StuckRetry> {
    return this.database.unit(async (tx) => {
      const now = this.clock();
      const order = await this.orders.lock(tx, orderId);
      if (!order) throw notFound('ORDER_NOT_FOUND', `no order ${orderId}`);
      const stuck = (await this.orders.itemsOf(tx, order.id)).filter(
        (i) => (i.status === 'pending' || i.status === 'processing') && Number(i.updated_at) < now - olderThanMs,
      );
      if (stuck.length === 0) {
        throw conflict(
          'INVALID_REQUEST',
          `order ${orderId} has no delivery open longer than ${Math.round(olderThanMs / 1000)}s; nothing to retry`,
        );
      }
      const rows = await this.outbox.rowsFor(
        tx,
        stuck.map((i) => i.id),
      );
      let requeued = 0;
      for (const item of stuck) {
        if (rows.has(item.id)) continue;
        await this.outbox.requeue(tx, item.id, item.provider_ref ? 'poll' : 'submit', now);
        requeued++;
      }
      const hurried = await this.outbox.runNow(
        tx,
        [...rows.values()].map((r) => r.id),
        now,
      );
      const retry = { orderId: order.id, shortReference: order.short_reference, stuck: stuck.length, requeued, hurried };
      const { orderId: _, ...detail } = retry;
      await this.audit.record(tx, actor, 'order.retry', { type: 'order', id: order.id }, detail);
      return retry;
    });
  }

  /**
   * Books the outcome of one delivery exactly once: completed spends the hold, failed returns it
   * to available (docs/order-lifecycle.md, "The money at each step"). Returns false, changing
   * nothing, when the item already left that state (settled before, or retried since).
   */
  async settle(s: Settlement): Promise<boolean> {
    return this.database.unit(async (tx) => {
      const order = await this.orders.lockWithWallet(tx, s.orderId);
      if (!order) return false;
      return this.settleLocked(tx, order, s);
    });
  }

  /** The settlement inside a unit whose order is locked (with its wallet id). */
  private async settleLocked(tx: Tx, order: OrderRow & { wallet_id: string | null }, s: Settlement): Promise<boolean> {
    const errorMessage = s.outcome.status === 'failed' ? s.outcome.errorMessage : null;
    const settled = await this.orders.settleItem(tx, {
      itemId: s.itemId,
      attempt: s.attempt,
      from: ['pending', 'processing'],
      outcome: s.outcome.status,
      errorMessage,
      now: s.now,
    });
    if (!settled) return false;
    if (order.wallet_id === null) throw new Error(`wallet of order ${order.id} not found`);
    const completed = s.outcome.status === 'completed';
    // A bulk order's recipients as they are now (its counts, and its events' view); a single order has this one item.
    const items = order.is_bulk === 1 ? await this.orders.itemsOf(tx, order.id) : [];
    const counts: ItemCounts =
      order.is_bulk === 1
        ? countItems(items)
        : { open: 0, completed: completed ? 1 : 0, failed: completed ? 0 : 1, total: 1, firstError: errorMessage };
    // The hold of this attempt (the guarded update returned its amount) is spent or returned.
    const delivery = {
      walletId: order.wallet_id,
      orderType: heldOrderType(order.order_type),
      orderId: order.id,
      itemId: s.itemId,
      attempt: s.attempt,
      amount: settled.amount,
    };
    const balances = await this.wallets.post(tx, completed ? postings.settle(delivery) : postings.release(delivery), s.now);
    // The hold of this attempt is in `held`; anything else means the books are already wrong.
    if (!balances) throw new Error(`held balance of wallet ${order.wallet_id} is below the hold of item ${s.itemId}`);
    // With the ledger entry: the delivery leaves the outbox, the order takes its new state.
    this.outbox.removeForItem(tx, s.itemId);
    const changes = orderStateAfter(order, counts, s.now);
    this.orders.update(tx, order, changes);
    this.recordEvents(tx, { ...order, ...changes, version: Number(order.version) + 1 }, order.state, items, s.itemId, s.now);
    return true;
  }

  /**
   * The events of a settlement (docs/webhooks.md, "Event types"), in its unit: a bulk recipient's outcome,
   * and the order's when it has just become final.
   */
  private recordEvents(
    tx: Tx,
    order: OrderRow,
    stateBefore: OrderRow['state'],
    items: OrderItemRow[],
    itemId: string,
    now: number,
  ): void {
    const owner = { profileId: order.profile_id, mode: order.mode };
    const view = toOrderView(order, items);
    const recipient = items.find((i) => i.id === itemId);
    if (recipient) {
      const type = recipient.status === 'completed' ? 'order.recipient.completed' : 'order.recipient.failed';
      this.events.record(tx, owner, type, { object: view, recipient: toRecipientView(recipient) }, now);
    }
    const final = order.state === 'completed' || order.state === 'failed';
    if (final && order.state !== stateBefore) {
      this.events.record(tx, owner, order.state === 'completed' ? 'order.completed' : 'order.failed', { object: view }, now);
    }
  }
}

/** The call that follows an attempt's last recorded state, or null when it needs a route chosen. */
function nextCall(last: ProviderAttemptRow | undefined): AttemptCall['call'] | null {
  switch (last?.status) {
    case 'pending':
    case 'unknown':
      // The call may have reached the upstream: find it there before anything else.
      return 'lookup';
    case 'absent':
      // Nothing was delivered: the route choice decides between the next route and the same one again.
      return null;
    case 'accepted':
      return last.provider_transaction_id === null ? 'lookup' : 'check';
    case 'completed':
      // Recorded with its settlement; an open item here means a settlement to finish: the check says so again.
      return 'check';
    default:
      return null;
  }
}

/** The call for an attempt, its route as an object (a stored attempt's route parsed once: routeOf). */
function callOf(
  item: ItemWithOrder,
  attempt: Pick<ProviderAttemptRow, 'reference' | 'provider' | 'provider_transaction_id' | 'created_at' | 'cost' | 'submitted_at' | 'absences'> & {
    route: Route;
  },
  call: AttemptCall['call'],
): AttemptCall {
  return {
    call,
    reference: attempt.reference,
    provider: attempt.provider as ProviderName,
    route: attempt.route,
    transactionId: attempt.provider_transaction_id,
    createdAt: Number(attempt.created_at),
    cost: attempt.cost === null ? null : Number(attempt.cost),
    submittedAt: attempt.submitted_at === null ? null : Number(attempt.submitted_at),
    absences: Number(attempt.absences),
    itemId: item.id,
    orderId: item.order_id,
    itemAttempt: Number(item.attempt),
    msisdn: item.beneficiary_msisdn,
    packageId: item.package_id,
    price: Number(item.amount),
    mode: item.mode,
  };
}
