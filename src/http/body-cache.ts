import type { FastifyReply } from 'fastify';

/** Fastify's own content type for the JSON it serializes. */
export const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Serialized 200 bodies of one route, for responses that are a pure function of a small key
 * (the catalog's version, the caller's role, the filters). The body is made by the route's own
 * response serializer, so it is byte for byte what the route would have sent, without building
 * and serializing the same list on every request. Keys come partly from the query string: when
 * `capacity` is reached the cache starts over, so no caller can make it grow without bound.
 */
export class BodyCache {
  private readonly bodies = new Map<string, ReturnType<FastifyReply['serialize']>>();

  constructor(private readonly capacity: number) {}

  /** Sends the cached body for `key`, or serializes what `build` returns, keeps it and sends it. */
  async send(reply: FastifyReply, key: string, build: () => Promise<unknown>): Promise<FastifyReply> {
    let body = this.bodies.get(key);
    if (body === undefined) {
      body = reply.serialize(await build());
      if (this.bodies.size >= this.capacity) this.bodies.clear();
      this.bodies.set(key, body);
    }
    return reply.type(JSON_TYPE).send(body);
  }
}
