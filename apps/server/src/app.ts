import { ERROR_CODES, errorCodeOfStatus } from '@paydesk/shared';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import cookie from '@fastify/cookie';
import helmet from '@fastify/helmet';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import {
  createGuards,
  createSessions,
  registerAuthModule,
  registerSessionLoading,
} from './modules/auth/index.ts';
import { healthRoutes } from './modules/health/health.routes.ts';
import { registerUsersModule } from './modules/users/index.ts';
import { registerLedgerModule } from './modules/ledger/index.ts';
import { registerOpsModule } from './modules/ops/index.ts';
import { registerSecurityModule } from './modules/security/index.ts';
import { registerAccessKeyModule } from './modules/access-key/index.ts';
import type { AppContext } from './context.ts';
import { startHousekeeping } from './jobs/housekeeping.ts';
import { redactUrl } from './lib/redact.ts';
import { registerCsrf } from './plugins/csrf.ts';
import { markBodyRead, registerErrorHandler } from './plugins/error-handler.ts';
import { refuseUnstorableText } from './plugins/text-input.ts';

export const UPLOAD_LIMIT_BYTES = 2 * 1024 * 1024;

export type AppDeps = {
  config: Config;
  database: Database;
  logger?: FastifyServerOptions['logger'];
};

export async function buildApp({ config, database, logger }: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: logger ?? {
      level: config.logLevel,
      serializers: {
        req: (req) => ({ method: req.method, url: redactUrl(req.url), remoteAddress: req.ip }),
      },
    },
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    // SIGTERM: new requests get 503 while in-flight ones finish.
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    // The router's own refusals (a malformed %-escape, a path parameter too long) in our error shape.
    frameworkErrors: (error, request, reply) => {
      const status =
        error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400;
      const message = status === 414 ? 'The address is too long.' : 'The address is not valid.';
      void (reply as FastifyReply)
        .status(status)
        .send({ message, code: errorCodeOfStatus(status), request_id: request.id });
    },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  await app.register(cookie);
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // antd's CSS-in-JS writes <style> tags at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        connectSrc: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
    hsts: config.isProduction,
  });
  await app.register(multipart, {
    attachFieldsToBody: 'keyValues',
    limits: { fileSize: UPLOAD_LIMIT_BYTES, files: 1, fields: 50 },
  });
  markBodyRead(app);
  refuseUnstorableText(app);
  // A coarse per-IP ceiling for the whole API; finer throttles (login, challenge) are in the database.
  await app.register(rateLimit, { max: config.env === 'test' ? 100000 : 1200, timeWindow: '1 minute' });

  const db = database.db;
  const sessions = createSessions({ db, config });
  const guards = createGuards();

  registerSessionLoading(app, { db });
  registerCsrf(app, { appKey: config.appKey });

  healthRoutes(app, { database });
  registerAuthModule(app, { db, config, sessions });
  registerUsersModule(app, { guards });

  const ctx: AppContext = { config, database, db, sessions, guards };
  registerSecurityModule(app, ctx);
  registerLedgerModule(app, ctx);
  registerOpsModule(app, ctx);
  registerAccessKeyModule(app, ctx);

  let stopHousekeeping = () => {};
  app.addHook('onReady', async () => {
    stopHousekeeping = startHousekeeping(db, app.log);
  });
  app.addHook('onClose', async () => stopHousekeeping());

  const hasConsole = existsSync(path.join(config.webDist, 'index.html'));
  if (hasConsole) await serveConsoleAssets(app, config.webDist);
  app.setNotFoundHandler((request, reply) => {
    const isApi = API_PREFIXES.some((prefix) => request.url.startsWith(prefix));
    const isAsset = request.url.startsWith('/assets/');
    // Console paths (/dashboard, /fund/fundWater, ...) are the single-page app's: answer index.html.
    if (hasConsole && request.method === 'GET' && !isApi && !isAsset) {
      return reply.header('cache-control', 'no-store').sendFile('index.html');
    }
    return reply
      .status(404)
      .send({ message: 'Not found.', code: ERROR_CODES.notFound, request_id: request.id });
  });
  return app;
}

const API_PREFIXES = ['/api/', '/ops/', '/gateway/', '/healthz'];

/** The built console: hashed assets cached for a year, index.html never. */
async function serveConsoleAssets(app: FastifyInstance, root: string) {
  await app.register(fastifyStatic, {
    root,
    wildcard: false,
    index: false,
    setHeaders: (res, filePath) => {
      const isHashedAsset = filePath.includes(`${path.sep}assets${path.sep}`);
      res.header('cache-control', isHashedAsset ? 'public, max-age=31536000, immutable' : 'no-store');
    },
  });
}
