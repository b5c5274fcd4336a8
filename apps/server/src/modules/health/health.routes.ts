import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/client.ts';

export function healthRoutes(
  app: FastifyInstance,
  { database }: { database: Pick<Database, 'ping' | 'kind'> },
) {
  app.get('/healthz', async (request, reply) => {
    const started = performance.now();
    try {
      await database.ping();
    } catch (err) {
      request.log.error({ err }, 'health check: database unreachable');
      return reply.status(503).send({ status: 'error', database: database.kind, request_id: request.id });
    }
    return {
      status: 'ok',
      database: database.kind,
      db_ms: Math.round((performance.now() - started) * 10) / 10,
    };
  });
}
