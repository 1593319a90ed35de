declare module 'fastify' {
  interface FastifyInstance {
    /** Every route of the app by method and URL pattern (see RouteIndex). */
    routeIndex: RouteIndex;
  }
  interface FastifyContextConfig {
    /** A hidden route that answers "nothing here" for a whole subtree; not a route of the API. */
    catchAll?: boolean;
  }
}

/**
 * Every route the app serves, by method and URL pattern, as registered (Fastify's onRoute). Used
 * to tell a wrong method on a known path (405 with Allow) from an unknown path (404), and by the
 * tests that must cover every route.
 */
export interface RouteEntry {
  method: string;
  url: string;
}

interface IndexedRoute extends RouteEntry {
  pattern: RegExp;
}

/** `/orders/:orderId/status` → a regex matching one concrete path (a parameter is one segment). */
function patternOf(url: string): RegExp {
  const source = url
    .split('/')
    .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source}/?$`);
}

export class RouteIndex {
  private readonly routes: IndexedRoute[] = [];

  add(method: string, url: string): void {
    this.routes.push({ method, url, pattern: patternOf(url) });
  }

  /** The routes in the order they were registered. */
  list(): RouteEntry[] {
    return this.routes.map(({ method, url }) => ({ method, url }));
  }

  /** Methods served at the concrete `path` (no query string), in a stable order. */
  methodsAt(path: string): string[] {
    const methods = new Set(this.routes.filter((r) => r.pattern.test(path)).map((r) => r.method));
    return [...methods].sort();
  }
}
