import type { FastifyRequest } from 'fastify';

/**
 * Whether the request is for the console API. Decided by the route the router matched, not by the raw
 * URL: the router decodes the path, so "/%61pi/login" runs the /api/login route while its URL does not
 * start with "/api/". An unmatched URL falls back to its raw path.
 */
export const isApiRequest = (request: FastifyRequest): boolean =>
  (request.routeOptions.url ?? request.url).startsWith('/api/');
