import type { FastifyInstance, FastifySchema, RouteOptions } from 'fastify';

/** One route as the app registered it: what the access matrix and the fuzz tests walk. */
export type RouteEntry = { method: string; url: string; schema: FastifySchema | undefined };

const tables = new WeakMap<FastifyInstance, RouteEntry[]>();

/**
 * Records every route registered on `app` from now on (child plugins inherit the hook). Fastify keeps no public route
 * list, and parsing printRoutes() would lose the schemas; this lets tests cover a route nobody told them about.
 */
export function recordRoutes(app: FastifyInstance): void {
  const routes: RouteEntry[] = [];
  tables.set(app, routes);
  app.addHook('onRoute', (route: RouteOptions) => {
    for (const method of [route.method].flat()) {
      routes.push({ method, url: route.url, schema: route.schema });
    }
  });
}

/** The routes `app` registered after `recordRoutes(app)`, in registration order. */
export function routesOf(app: FastifyInstance): readonly RouteEntry[] {
  const routes = tables.get(app);
  if (!routes) throw new Error('routesOf: this app was not built with recordRoutes()');
  return routes;
}
