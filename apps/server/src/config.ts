import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';

// Production unless told otherwise (issue 33): a server started by hand, or by a service manager that sets
// no NODE_ENV, must not seed the demo logins or call back into private networks. `npm run dev` says
// development; `npm start` stays in production and adds the demo (--demo, PAYDESK_DEMO=true).
const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  /** The demo (npm start's --demo): seeds the demo merchants, opens the sandbox, allows private callbacks. */
  PAYDESK_DEMO: z.enum(['true', 'false']).default('false'),
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
  TRUST_PROXY: z.string().optional(),
  DB_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(20),
  DB_ACQUIRE_TIMEOUT_MS: z.coerce.number().int().min(100).default(5000),
  DB_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).default(15000),
  WEB_DIST: z.string().optional(),
  /**
   * Requests a minute one IP address may make of the API (console API, ops, gateway, sandbox, health);
   * the console's page and its assets are not counted. 1,200 by default (100,000 under test).
   */
  API_RATE_PER_MINUTE: z.coerce.number().int().min(1).optional(),
  /** inline: this process also runs the background jobs; off: leave them to `npm run worker`. */
  JOBS: z.enum(['inline', 'off']).optional(),
  /**
   * Which job queues this process works, comma-separated (all by default): e.g. every queue but
   * export.run, when exports run in their own small `npm run worker:exports` processes.
   */
  JOB_QUEUES: z.string().optional(),
  /** Callbacks may go to loopback and private addresses (development, the demo). */
  NOTIFY_ALLOW_PRIVATE: z.enum(['true', 'false']).optional(),
  /** The address merchants and payers reach this server at (pay_url links). */
  PUBLIC_URL: z.string().url().optional(),
  // Withdrawals (DESIGN section 4): the fee in USDT per withdrawal, how many a day are free (in the
  // merchant's time zone), the smallest amount, and the merchant currencies' USDT rates
  // ("CNY:7.1,INR:83.2"), frozen on each request.
  WITHDRAWAL_FEE_USDT: z
    .string()
    .regex(/^\d{1,9}(\.\d{1,6})?$/, 'WITHDRAWAL_FEE_USDT must be a USDT amount such as 1.5')
    .default('1'),
  WITHDRAWAL_FREE_PER_DAY: z.coerce.number().int().min(0).max(1000).default(1),
  WITHDRAWAL_MIN_USDT: z
    .string()
    .regex(/^\d{1,9}(\.\d{1,6})?$/, 'WITHDRAWAL_MIN_USDT must be a USDT amount such as 10')
    .default('10'),
  USDT_RATES: z
    .string()
    .regex(
      /^[A-Z]{3,4}:\d{1,9}(\.\d{1,8})?(,[A-Z]{3,4}:\d{1,9}(\.\d{1,8})?)*$/,
      'USDT_RATES must look like CNY:7.1,INR:83.2',
    )
    .optional(),
  /** Files (screenshots, exports) go to s3://bucket/prefix when set, else to DATA_DIR/files. */
  STORAGE_URL: z
    .string()
    .regex(
      /^s3:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](\/.*)?$/,
      'STORAGE_URL must look like s3://bucket/prefix',
    )
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /** An S3-compatible endpoint (MinIO, R2...); unset means AWS itself. */
  S3_ENDPOINT: z.string().url().optional(),
  /** Mail goes to this SMTP server (smtp://user:pass@host:587, smtps://...); unset: .eml files in DATA_DIR/mail. */
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/[^\s]+$/, 'SMTP_URL must look like smtp://user:password@host:587 or smtps://...')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /** The From of every mail. */
  MAIL_FROM: z.string().trim().min(3).max(200).default('Paydesk <no-reply@paydesk.local>'),
  // Contact us (console): each channel is shown when set; an empty value hides it.
  SUPPORT_TELEGRAM: z
    .string()
    .regex(
      /^(@?[A-Za-z0-9_]{5,32})?$/,
      'SUPPORT_TELEGRAM must be a Telegram username such as @paydesk_support',
    )
    .default('@paydesk_support'),
  SUPPORT_WHATSAPP: z
    .string()
    .regex(
      /^(\+?[0-9 ]{6,20})?$/,
      'SUPPORT_WHATSAPP must be a phone number in international form (+852 5555 0100)',
    )
    .default('+852 5555 0100'),
  SUPPORT_EMAIL: z
    .email('SUPPORT_EMAIL must be an email address')
    .or(z.literal(''))
    .default('support@paydesk.example'),
  /** "09:00-21:00" (empty: no hours shown), on SUPPORT_DAYS, in SUPPORT_TIMEZONE (shown as written). */
  SUPPORT_HOURS: z
    .string()
    .regex(/^(([01]\d|2[0-3]):[0-5]\d-([01]\d|2[0-4]):[0-5]\d)?$/, 'SUPPORT_HOURS must read like 09:00-21:00')
    .default('09:00-21:00'),
  SUPPORT_DAYS: z.enum(['everyday', 'weekdays']).default('everyday'),
  SUPPORT_TIMEZONE: z.string().max(40).default('UTC+8'),
  /** Top-ups (DESIGN 4): the platform's USDT deposit address per network, shown with a QR code. */
  TOP_UP_ADDRESS_TRC20: z
    .string()
    .regex(/^T[1-9A-HJ-NP-Za-km-z]{33}$/, 'Not a TRON address')
    .optional(),
  TOP_UP_ADDRESS_ERC20: z
    .string()
    .regex(/^0x[0-9a-fA-F]{40}$/, 'Not an ERC20 address')
    .optional(),
  /** The indicative rate of one USDT per merchant currency, e.g. "CNY=7.10,INR=83.20"; and in USD. */
  TOP_UP_RATES: z.string().optional(),
});

/** The merchant currency per USDT when USDT_RATES does not say (demo figures, not market data). */
export const DEFAULT_USDT_RATES: Record<string, string> = {
  CNY: '7.1',
  INR: '83.2',
  BRL: '5.4',
  VND: '25400',
  USD: '1',
  USDT: '1',
};

export type Config = {
  env: 'development' | 'production' | 'test';
  isProduction: boolean;
  /** Started as the demo (npm start: --demo, or PAYDESK_DEMO=true). */
  isDemo: boolean;
  /**
   * The sandbox channel (its pay page, its channels, its orders' settlement) is on: in development, under
   * test and in the demo; never in a production server of real merchants (issue 33, until test mode).
   */
  sandboxEnabled: boolean;
  port: number;
  host: string;
  databaseUrl: string | undefined;
  dataDir: string;
  /** 32 bytes: encrypts secrets at rest and signs CSRF tokens. */
  appKey: Buffer;
  logLevel: string;
  /** Fastify's trustProxy: false, the number of proxy hops, or the proxies' addresses and CIDR blocks. */
  trustProxy: TrustProxy;
  db: { poolSize: number; acquireTimeoutMs: number; statementTimeoutMs: number };
  webDist: string;
  /** The per-IP ceiling of API requests a minute (API_RATE_PER_MINUTE). */
  apiRatePerMinute: number;
  jobsInline: boolean;
  /** null: every queue. */
  jobQueues: string[] | null;
  notifyAllowPrivate: boolean;
  /** No trailing slash; empty means "relative links" (the sandbox page is on this same server). */
  publicUrl: string;
  withdrawals: {
    feeUsdt: string;
    freePerDay: number;
    minUsdt: string;
    /** Merchant currency -> decimal rate per USDT. */
    usdtRates: Record<string, string>;
  };
  storage: { url: string | undefined; s3Endpoint: string | undefined };
  /** Email (DESIGN 16): SMTP_URL's server, or .eml files in DATA_DIR/mail when it is unset. */
  mail: { smtpUrl: string | undefined; from: string };
  /** The support channels of Contact us; empty strings are channels not offered. */
  support: {
    telegram: string;
    whatsapp: string;
    email: string;
    hours: string;
    days: 'everyday' | 'weekdays';
    timezone: string;
  };
  /** Top-ups: deposit addresses per network and the indicative rate of one USDT per currency. */
  topUp: { addresses: { TRC20: string; ERC20: string }; rates: Record<string, string> };
};

// Demo defaults (well-formed, checksummed addresses; set real ones in production).
const DEFAULT_TOP_UP_ADDRESSES = {
  TRC20: 'TJEh7TX8sNj5uq4hXKyYdTrnGmeeG48top',
  ERC20: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
};
const DEFAULT_TOP_UP_RATES: Record<string, string> = {
  CNY: '7.10',
  INR: '83.20',
  BRL: '5.40',
  VND: '25400',
  USD: '1.00',
  USDT: '1',
};

export type TrustProxy = false | number | string[];

// proxy-addr's names for well-known ranges, which Fastify's trustProxy takes beside addresses.
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * TRUST_PROXY as Fastify's trustProxy takes it: a hop count or a list of proxy addresses and CIDR blocks.
 * `true` would believe every X-Forwarded-For entry, which the client writes itself: its address, and with
 * it the IP whitelist and every per-IP limit, would be whatever it says. So true is refused.
 */
function parseTrustProxy(raw: string | undefined): TrustProxy | { problem: string } {
  const value = (raw ?? '').trim();
  if (value === '' || value === 'false' || value === '0') return false;
  if (value === 'true') {
    return {
      problem:
        'true would trust every hop, so any client could forge its address with X-Forwarded-For (past the ' +
        'IP whitelist and every per-IP limit). Set the number of proxies in front of this server ' +
        '(TRUST_PROXY=1 for one load balancer) or their addresses (TRUST_PROXY=10.0.0.0/8,192.168.1.7).',
    };
  }
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops > 32) return { problem: `${value} is not a number of proxy hops (at most 32).` };
    return hops;
  }
  const entries = value.split(',').map((entry) => entry.trim());
  for (const entry of entries) {
    const problem = proxyEntryProblem(entry);
    if (problem) {
      return {
        problem:
          `${problem} TRUST_PROXY takes the number of proxy hops (e.g. 1) or proxy addresses and CIDR ` +
          'blocks separated by commas (e.g. 10.0.0.0/8,192.168.1.7); false or unset: no proxy.',
      };
    }
  }
  return entries;
}

function proxyEntryProblem(entry: string): string | undefined {
  if (entry === '') return 'An entry is empty (two commas in a row, or one at an end).';
  if (PROXY_RANGE_NAMES.has(entry)) return undefined;
  const [address, prefix, extra] = entry.split('/');
  const family = isIP(address);
  const bad = `"${entry}" is not an IPv4 or IPv6 address or CIDR block.`;
  if (family === 0 || extra !== undefined) return bad;
  if (prefix === undefined) return undefined;
  const maxPrefix = family === 4 ? 32 : 128;
  if (!/^\d{1,3}$/.test(prefix) || Number(prefix) > maxPrefix) {
    return `"${entry}" has a prefix out of range (IPv${family}: 1 to ${maxPrefix}).`;
  }
  if (Number(prefix) === 0) return `"${entry}" is every address: it would trust every hop, as true would.`;
  // A block wider than a /8 is no proxy's network: 0.0.0.0/1 + 128.0.0.0/1, or ::ffff:0:0/96 (every IPv4
  // peer as IPv6 sees it), would trust every hop as true would.
  const mapped = family === 6 && /^::ffff:/i.test(address);
  const widthAsIpv4 = mapped ? Number(prefix) - 96 : Number(prefix);
  if (widthAsIpv4 < 8) {
    return `"${entry}" is wider than a /8: a proxy list names the proxies' own networks, not most of the Internet.`;
  }
  return undefined;
}

function parseRates(raw: string | undefined): Record<string, string> {
  const rates = { ...DEFAULT_TOP_UP_RATES };
  for (const pair of (raw ?? '').split(',').filter(Boolean)) {
    const match = /^\s*([A-Z]{3,4})\s*=\s*(\d{1,9}(?:\.\d{1,8})?)\s*$/.exec(pair);
    if (!match) throw new Error(`Invalid configuration:\n  TOPUP_RATES: "${pair}" is not CUR=rate`);
    rates[match[1]] = match[2];
  }
  return rates;
}

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
  const trustProxy = parseTrustProxy(e.TRUST_PROXY);
  if (typeof trustProxy === 'object' && 'problem' in trustProxy) {
    throw new Error(`Invalid configuration:\n  TRUST_PROXY: ${trustProxy.problem}`);
  }
  const dataDir = path.resolve(repoRoot, e.DATA_DIR);
  const isDemo = e.PAYDESK_DEMO === 'true';
  // The demo and development run every order's life on one machine: the sandbox, callbacks to localhost.
  const isOneMachine = isDemo || e.NODE_ENV !== 'production';
  return {
    env: e.NODE_ENV,
    isProduction: e.NODE_ENV === 'production',
    isDemo,
    sandboxEnabled: isOneMachine,
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    dataDir,
    appKey: resolveAppKey(e.APP_KEY, dataDir),
    logLevel: e.LOG_LEVEL,
    trustProxy,
    db: {
      poolSize: e.DB_POOL_SIZE,
      acquireTimeoutMs: e.DB_ACQUIRE_TIMEOUT_MS,
      statementTimeoutMs: e.DB_STATEMENT_TIMEOUT_MS,
    },
    webDist: path.resolve(repoRoot, e.WEB_DIST ?? 'apps/web/dist'),
    apiRatePerMinute: e.API_RATE_PER_MINUTE ?? (e.NODE_ENV === 'test' ? 100_000 : 1_200),
    // Tests drive jobs by hand; a server runs them unless told to leave them to worker processes.
    jobsInline: (e.JOBS ?? (e.NODE_ENV === 'test' ? 'off' : 'inline')) === 'inline',
    jobQueues: e.JOB_QUEUES?.trim()
      ? e.JOB_QUEUES.split(',')
          .map((queue) => queue.trim())
          .filter(Boolean)
      : null,
    // In production callbacks never reach private addresses unless allowed (npm start's demo allows it:
    // its merchants' notify URLs are on this machine).
    notifyAllowPrivate: (e.NOTIFY_ALLOW_PRIVATE ?? (isOneMachine ? 'true' : 'false')) === 'true',
    publicUrl: (e.PUBLIC_URL ?? '').replace(/\/+$/, ''),
    withdrawals: {
      feeUsdt: e.WITHDRAWAL_FEE_USDT,
      freePerDay: e.WITHDRAWAL_FREE_PER_DAY,
      minUsdt: e.WITHDRAWAL_MIN_USDT,
      usdtRates: {
        ...DEFAULT_USDT_RATES,
        ...Object.fromEntries(
          (e.USDT_RATES ?? '')
            .split(',')
            .filter(Boolean)
            .map((pair) => pair.split(':')),
        ),
      },
    },
    storage: { url: e.STORAGE_URL, s3Endpoint: e.S3_ENDPOINT },
    mail: { smtpUrl: e.SMTP_URL, from: e.MAIL_FROM },
    support: {
      telegram: e.SUPPORT_TELEGRAM,
      whatsapp: e.SUPPORT_WHATSAPP,
      email: e.SUPPORT_EMAIL,
      hours: e.SUPPORT_HOURS,
      days: e.SUPPORT_DAYS,
      timezone: e.SUPPORT_TIMEZONE,
    },
    topUp: {
      addresses: {
        TRC20: e.TOP_UP_ADDRESS_TRC20 ?? DEFAULT_TOP_UP_ADDRESSES.TRC20,
        ERC20: e.TOP_UP_ADDRESS_ERC20 ?? DEFAULT_TOP_UP_ADDRESSES.ERC20,
      },
      rates: parseRates(e.TOP_UP_RATES),
    },
  };
}
