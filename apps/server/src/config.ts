import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must be a postgres:// URL')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  DATA_DIR: z.string().default('./data'),
  APP_KEY: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  DB_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(20),
  DB_ACQUIRE_TIMEOUT_MS: z.coerce.number().int().min(100).default(5000),
  DB_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).default(15000),
  WEB_DIST: z.string().optional(),
  /** inline: this process also runs the background jobs; off: leave them to `npm run worker`. */
  JOBS: z.enum(['inline', 'off']).optional(),
  /** Callbacks may go to loopback and private addresses (development, the demo). */
  NOTIFY_ALLOW_PRIVATE: z.enum(['true', 'false']).optional(),
  /** The address merchants and payers reach this server at (pay_url links). */
  PUBLIC_URL: z.string().url().optional(),
});

export type Config = {
  env: 'development' | 'production' | 'test';
  isProduction: boolean;
  port: number;
  host: string;
  databaseUrl: string | undefined;
  dataDir: string;
  /** 32 bytes: encrypts secrets at rest and signs CSRF tokens. */
  appKey: Buffer;
  logLevel: string;
  trustProxy: boolean;
  db: { poolSize: number; acquireTimeoutMs: number; statementTimeoutMs: number };
  webDist: string;
  jobsInline: boolean;
  notifyAllowPrivate: boolean;
  /** No trailing slash; empty means "relative links" (the sandbox page is on this same server). */
  publicUrl: string;
};

const repoRoot = path.resolve(import.meta.dirname, '../../..');

/** APP_KEY is "base64:<32 bytes>" as Laravel writes it; generated into DATA_DIR on first start when unset. */
function resolveAppKey(raw: string | undefined, dataDir: string): Buffer {
  if (raw) return decodeAppKey(raw);
  const file = path.join(dataDir, 'app.key');
  if (existsSync(file)) return decodeAppKey(readFileSync(file, 'utf8').trim());
  mkdirSync(dataDir, { recursive: true });
  const key = `base64:${randomBytes(32).toString('base64')}`;
  writeFileSync(file, key + '\n', { mode: 0o600 });
  chmodSync(file, 0o600);
  return decodeAppKey(key);
}

function decodeAppKey(raw: string): Buffer {
  const key = Buffer.from(raw.replace(/^base64:/, ''), 'base64');
  if (key.length !== 32) throw new Error('APP_KEY must be "base64:" followed by 32 bytes in base64.');
  return key;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n');
    throw new Error(`Invalid configuration:\n${problems}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(repoRoot, e.DATA_DIR);
  return {
    env: e.NODE_ENV,
    isProduction: e.NODE_ENV === 'production',
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    dataDir,
    appKey: resolveAppKey(e.APP_KEY, dataDir),
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY,
    db: {
      poolSize: e.DB_POOL_SIZE,
      acquireTimeoutMs: e.DB_ACQUIRE_TIMEOUT_MS,
      statementTimeoutMs: e.DB_STATEMENT_TIMEOUT_MS,
    },
    webDist: path.resolve(repoRoot, e.WEB_DIST ?? 'apps/web/dist'),
    // Tests drive jobs by hand; a server runs them unless told to leave them to worker processes.
    jobsInline: (e.JOBS ?? (e.NODE_ENV === 'test' ? 'off' : 'inline')) === 'inline',
    // In production callbacks never reach private addresses unless allowed (npm start's demo allows it).
    notifyAllowPrivate:
      (e.NOTIFY_ALLOW_PRIVATE ?? (e.NODE_ENV === 'production' ? 'false' : 'true')) === 'true',
    publicUrl: (e.PUBLIC_URL ?? '').replace(/\/+$/, ''),
  };
}
