import type { Order } from './schemas.js';

/**
 * One rendered order, and its JSON once a caller has serialized it, kept as UTF-8 bytes: a page
 * copies them into its body as they are (a string made by a serializer is a rope of many pieces,
 * walked again and then encoded on every page that shows it).
 */
export interface RenderedOrder {
  view: Order;
  json: Buffer | undefined;
}

interface Entry extends RenderedOrder {
  version: number;
}

/**
 * Rendered views of orders (bulk orders with their recipients included), by order id, each valid
 * for one version of its order: every change of an order or of one of its items increments
 * orders.version, so an entry whose version matches can only be the same view. Least recently
 * used views are dropped beyond `capacity`.
 */
export class OrderViewCache {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly capacity: number) {}

  get(order: { id: string; version: number }): RenderedOrder | undefined {
    const entry = this.entries.get(order.id);
    if (entry === undefined || entry.version !== order.version) return undefined;
    this.entries.delete(order.id);
    this.entries.set(order.id, entry);
    return entry;
  }

  set(order: { id: string; version: number }, view: Order): RenderedOrder {
    const entry: Entry = { view, json: undefined, version: order.version };
    this.entries.delete(order.id);
    this.entries.set(order.id, entry);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as string);
    return entry;
  }
}
