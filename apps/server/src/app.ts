import { ERROR_CODES, errorCodeOfStatus } from '@paydesk/shared';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { DestinationStream } from 'pino';
import cookie from '@fastify/cookie';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
  LogController,
} from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config, TrustProxy } from './config.ts';
import type { Database } from './db/client.ts';
import {
  createGuards,
  registerModeMeta,
  createSessionMemory,
  createSessions,
  registerAuthModule,
  registerSessionLoading,
} from './modules/auth/index.ts';
import { healthRoutes } from './modules/health/index.ts';
import { registerUsersModule } from './modules/users/index.ts';
import { registerLedgerModule } from './modules/ledger/index.ts';
import { registerOpsModule } from './modules/ops/index.ts';
import { registerSecurityModule } from './modules/security/index.ts';
import { registerAccessKeyModule } from './modules/access-key/index.ts';
import type { AppContext } from './context.ts';
import swagger from '@fastify/swagger';
import { createJobRunner, type JobRunner } from './db/jobs.ts';
import { sweepExpired } from './jobs/housekeeping.ts';
import { type JobServices, startWorkers, workedQueues } from './jobs/workers.ts';
import { callbacksConsoleRoutes, createCallbacksService } from './modules/callbacks/index.ts';
import { registerCollectionsModule } from './modules/collections/index.ts';
import { registerLimitsModule } from './modules/limits/index.ts';
import {
  GATEWAY_API_DESCRIPTION,
  GATEWAY_TAGS,
  type GatewayLimitOptions,
  gatewayTransform,
  gatewayTransformObject,
  registerGatewayDocs,
  registerGatewayModule,
} from './modules/gateway/index.ts';
import { createSandboxService, registerSandboxModule, type SandboxService } from './modules/sandbox/index.ts';
import { registerReconciliationModule } from './modules/reconciliation/index.ts';
import { registerCheckoutModule } from './modules/checkout/index.ts';
import { registerPayoutBatchesModule } from './modules/payout-batches/index.ts';
import { createChannelJobs } from './modules/channels/index.ts';
import { registerDashboardModule } from './modules/dashboard/index.ts';
import { deleteExpiredPayoutKeys, registerPayoutsModule } from './modules/payouts/index.ts';
import { registerRefundsModule } from './modules/refunds/index.ts';
import { registerExportsModule } from './modules/exports/index.ts';
import type { AccessKeyService } from './modules/access-key/index.ts';
import { registerWithdrawalsModule } from './modules/withdrawals/index.ts';
import { decrypt } from './lib/crypto.ts';
import { rateKeyOfAddress } from './lib/ip-address.ts';
import { logTransport } from './lib/log-format.ts';
import { redactUrl } from './lib/redact.ts';
import { createStorage, type FileStorage } from './lib/storage/index.ts';
import { registerCsrf } from './plugins/csrf.ts';
import { registerTopUpsModule } from './modules/top-ups/index.ts';
import { markBodyRead, registerErrorHandler } from './plugins/error-handler.ts';
import { registerRequestContext } from './plugins/request-context.ts';
import { registerSecurityHeaders } from './plugins/security-headers.ts';
import { refuseUnstorableText } from './plugins/text-input.ts';
import { registerReportsModule } from './modules/reports/index.ts';
import { registerContactModule } from './modules/contact/index.ts';
import { registerTestDataModule } from './modules/test-data/index.ts';
import { registerTeamModule } from './modules/team/index.ts';
import { createMailService, type MailService } from './modules/mail/index.ts';
import {
  createNotificationsService,
  type NotificationsService,
  registerNotificationsModule,
} from './modules/notifications/index.ts';

export const UPLOAD_LIMIT_BYTES = 2 * 1024 * 1024;

/**
 * One log line per request, written when it is answered (the request, the status, the time), instead of
 * Fastify's two: at gateway rates the second line was a tenth of the server's CPU.
 */
class OneLinePerRequest extends LogController {
  override incomingRequest() {}

  override requestCompleted(error: Error | null, request: FastifyRequest, reply: FastifyReply) {
    const line = { req: request, res: reply, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}

export type AppDeps = {
  config: Config;
  database: Database;
  logger?: FastifyServerOptions['logger'];
  /**
   * Where the server's own log lines go (stdout when absent): the benchmarks log as main.ts does, with the
   * same serializers, into /dev/null. `logger` replaces the whole logger instead (tests: false).
   */
  logStream?: DestinationStream;
  /** The clock of every time rule; tests pass theirs. */
  now?: () => Date;
  /** In [0, 1): how routing shares orders among channels by weight; tests pass theirs. */
  random?: () => number;
  /** Delivers callbacks (tests may pass one with a short timeout). */
  deliverTimeoutMs?: number;
  /** Where files go; by default from the configuration (DATA_DIR/files or STORAGE_URL). */
  storage?: FileStorage;
  /** Export limits tests make small (XLSX rows per sheet, running exports per merchant). */
  exports?: { maxRowsPerSheet?: number; maxRunningPerMerchant?: number };
  /** The gateway's limits per minute (signed calls per merchant, refused calls per IP); tests make them small. */
  gateway?: GatewayLimitOptions;
};

/** What the app's background work and tests reach: the services behind the routes, and the job runner. */
export type AppServices = JobServices & {
  jobs: JobRunner;
  accessKeys: AccessKeyService;
  sandbox: SandboxService;
  mail: MailService;
  notifications: NotificationsService;
};

declare module 'fastify' {
  interface FastifyInstance {
    services: AppServices;
  }
}

export async function buildApp({
  config,
  database,
  logger,
  logStream,
  now = () => new Date(),
  random,
  deliverTimeoutMs,
  storage: givenStorage,
  exports: exportOptions,
  gateway: gatewayLimits,
}: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: logger ?? {
      level: config.logLevel,
      serializers: {
        req: (req) => ({ method: req.method, url: redactUrl(req.url), remoteAddress: req.ip }),
      },
      ...(logStream ? { stream: logStream } : { transport: logTransport(process.stdout.isTTY) }),
    },
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    logController: new OneLinePerRequest(),
    trustProxy: fastifyTrustProxy(config.trustProxy),
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
  // First: every later hook and handler of a request runs in its store.
  registerRequestContext(app);
  registerErrorHandler(app);
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  await app.register(cookie);
  registerSecurityHeaders(app, {
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
  // The gateway's OpenAPI 3.1 document, built from the /gateway route schemas (DESIGN section 6).
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Paydesk gateway API', version: '1.0.0', description: GATEWAY_API_DESCRIPTION },
      // Set per request at /gateway/openapi.json: PUBLIC_URL, else the origin the reader reached.
      servers: [],
      tags: GATEWAY_TAGS,
    },
    transform: gatewayTransform,
    transformObject: gatewayTransformObject,
  });
  refuseUnstorableText(app);
  // A coarse per-IP ceiling for the whole API; finer throttles (login, challenge) are in the database.
  // The console's page and its hashed assets are not counted: one page load is a score of requests, and
  // an office behind one address (or a browser without its cache) would be refused its own console.
  await app.register(rateLimit, {
    max: config.apiRatePerMinute,
    timeWindow: '1 minute',
    allowList: (request) => !isApiPath(request),
    // An IPv6 caller by its /64: one host's block would otherwise give it 2^64 addresses to rotate through.
    keyGenerator: (request) => rateKeyOfAddress(request.ip),
  });

  const db = database.db;
  const sessionMemory = createSessionMemory();
  const sessions = createSessions({ db, config, memory: sessionMemory });
  const guards = createGuards(db);
  registerModeMeta(app);

  registerSessionLoading(app, { db, memory: sessionMemory });
  registerCsrf(app, { appKey: config.appKey });

  healthRoutes(app, { database });
  registerUsersModule(app, { db, guards });

  const jobs = createJobRunner(database.jobConnection);
  const storage =
    givenStorage ??
    createStorage({
      dataDir: config.dataDir,
      ...(config.storage.url ? { storageUrl: config.storage.url } : {}),
      ...(config.storage.s3Endpoint ? { s3Endpoint: config.storage.s3Endpoint } : {}),
    });
  const mail = createMailService({
    jobs,
    smtpUrl: config.mail.smtpUrl,
    from: config.mail.from,
    dataDir: config.dataDir,
    now,
    log: (detail, message) => app.log.info(detail, message),
  });
  const notifications = createNotificationsService({ db, mail, now, publicUrl: config.publicUrl });
  registerNotificationsModule(app, { notifications, guards });
  registerAuthModule(app, { db, config, sessions, notifications, now });
  const ctx: AppContext = {
    config,
    database,
    db,
    sessions,
    guards,
    jobs,
    now,
    storage,
    random,
    mail,
    notifications,
  };
  registerSecurityModule(app, ctx);
  registerLedgerModule(app, ctx);
  const accessKeys = registerAccessKeyModule(app, ctx);
  const callbacks = createCallbacksService({
    db,
    jobs,
    now,
    allowPrivate: config.notifyAllowPrivate,
    settingsOf: (dbOrTx, merchantId) => accessKeys.credentialsOf(dbOrTx, merchantId),
    openSecret: (encrypted) => decrypt(config.appKey, encrypted),
    ...(deliverTimeoutMs ? { timeoutMs: deliverTimeoutMs } : {}),
  });
  callbacksConsoleRoutes(app, { callbacks, guards });
  const limitsModule = registerLimitsModule(app, ctx);
  const { limits } = limitsModule;
  const { collections, settlements, gatewayRoutes } = registerCollectionsModule(app, ctx, {
    callbacks,
    limits,
  });
  const payoutsModule = registerPayoutsModule(app, ctx, { callbacks, limits });
  const payouts = payoutsModule.payouts;
  const refundsModule = registerRefundsModule(app, ctx, { callbacks, collections });
  const refunds = refundsModule.refunds;
  registerDashboardModule(app, ctx, { collections, payouts, refunds });
  const sandboxDeps = {
    db,
    collections,
    payouts,
    now,
    isEnabled: config.sandboxEnabled,
    appKey: config.appKey,
  };
  const sandbox = createSandboxService(sandboxDeps);
  registerSandboxModule(app, sandboxDeps);
  await registerGatewayModule(
    app,
    ctx,
    (gateway) => {
      gatewayRoutes(gateway);
      payoutsModule.gatewayRoutes(gateway);
      refundsModule.gatewayRoutes(gateway);
    },
    gatewayLimits,
  );
  const { withdrawals } = registerWithdrawalsModule(app, ctx, { limits });
  registerOpsModule(app, ctx, { settlements, sandbox, accessKeys, withdrawals });
  limitsModule.opsRoutes();
  const reconciliation = registerReconciliationModule(app, ctx, {
    collections,
    payouts,
    refunds: { findAny: refunds.findAny, finish: refunds.finish },
  });
  const channelJobs = createChannelJobs({
    db,
    jobs,
    now,
    settings: { sandboxEnabled: config.sandboxEnabled },
    collections,
    payouts,
    refunds: { findAny: refunds.findAny, finish: refunds.finish },
    inFlight: { payouts: payouts.inFlight, refunds: refunds.inFlight },
    appKey: config.appKey,
    receive: (channel, payment) => reconciliation.receive(channel, payment),
    warn: (detail, message) => app.log.warn(detail, message),
  });
  registerCheckoutModule(app, { db, collections, now });
  registerPayoutBatchesModule(app, ctx, { payouts });
  registerTopUpsModule(app, ctx);
  const dailyReports = registerReportsModule(app, ctx);
  const exports = registerExportsModule(app, ctx, { dailyReports }, exportOptions);
  registerContactModule(app, ctx);
  const testData = registerTestDataModule(app, ctx);
  registerTeamModule(app, ctx);
  await registerGatewayDocs(app, config);

  const services: AppServices = {
    jobs,
    accessKeys,
    collections,
    settlements,
    payouts,
    callbacks,
    sandbox,
    channelJobs,
    exports,
    dailyReports,
    testData,
    mail,
    notifications,
    housekeeping: async () => {
      await sweepExpired(db, now());
      await deleteExpiredPayoutKeys(db, now());
      await limits.sweepUsage();
      await exports.sweep();
      await channelJobs.resumeInFlight(now());
    },
  };
  app.decorate('services', services);

  app.addHook('onReady', async () => {
    await jobs.start();
    if (config.jobsInline) await startWorkers(jobs, services, { queues: workedQueues(config.jobQueues) });
  });
  // SIGTERM: requests finish first (Fastify), then running jobs (pg-boss's graceful stop).
  app.addHook('onClose', async () => {
    await jobs.stop();
  });

  const hasConsole = existsSync(path.join(config.webDist, 'index.html'));
  if (hasConsole) await serveConsoleAssets(app, config.webDist);
  app.setNotFoundHandler((request, reply) => {
    const isApi = isApiPath(request);
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

/**
 * TRUST_PROXY (config.ts) as Fastify takes it. A hop count is Fastify's own rule (the nearest n hops are
 * proxies), given as its function because Fastify's types do not list numbers.
 */
function fastifyTrustProxy(
  trustProxy: TrustProxy,
): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trustProxy !== 'number') return trustProxy;
  return (_address, hop) => hop < trustProxy;
}

const API_PREFIXES = ['/api/', '/ops/', '/gateway/', '/sandbox/', '/channels/', '/pay/', '/healthz'];

/** A request for the API (any of API_PREFIXES), by the route matched (see isApiRequest), else its path. */
const isApiPath = (request: FastifyRequest): boolean => {
  const url = request.routeOptions.url ?? request.url;
  return API_PREFIXES.some((prefix) => url.startsWith(prefix));
};

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
