import {
  BlockBodySchema,
  ClearLimitsBodySchema,
  ListBlocksQuerySchema,
  ListLimitsQuerySchema,
  SetLimitsBodySchema,
} from '../../modules/limits/index.ts';
import { type CommandSpec, type Data, MERCHANT, MODE, REASON, table } from './command-spec.ts';

// Limits and risk rules (DESIGN 14): limit:set|clear|list, block:add|remove|list.

const KIND = {
  value: 'collection|payout|withdrawal',
  required: true,
  help: 'the orders the limits apply to',
};
const LIST = {
  value: 'payee_account|wallet_address|payer_ip',
  required: true,
  help: 'payee accounts stop payouts, wallet addresses withdrawals, payer IPs (address or CIDR) collections',
};
const VALUE = { value: '<text>', required: true, help: 'the account number, wallet address, or IP / CIDR' };

const show = (value: unknown) => (value === null || value === undefined ? '-' : String(value));

/** One kind's limits on one line. */
const limitsLine = (d: Data) =>
  `${String(d.merchant)} ${String(d.mode)} ${String(d.kind)} limits (${String(d.currency)}): ` +
  `per order ${show(d.per_order_min)} to ${show(d.per_order_max)}, daily amount ${show(d.daily_amount)}, ` +
  `daily count ${show(d.daily_count)}` +
  (d.kind === 'payout' ? `, per payee account per day ${show(d.payee_daily_count)}` : '') +
  '.';

const queryOf = (q: Data) =>
  new URLSearchParams(
    Object.entries(q)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]): [string, string] => [k, String(v)]),
  );

export const LIMIT_COMMANDS: Record<string, CommandSpec> = {
  'limit:set': {
    summary:
      "Set a merchant's limits of a kind (the others kept): per order, per day (its time zone), per payee.",
    options: {
      merchant: MERCHANT,
      mode: MODE,
      kind: KIND,
      'per-order-min': { value: '<amount>', help: 'smallest order (withdrawals: USDT)' },
      'per-order-max': { value: '<amount>', help: 'largest order (withdrawals: USDT)' },
      'daily-amount': { value: '<amount>', help: "the orders' total per local day" },
      'daily-count': { value: '<n>', help: 'orders per local day' },
      'payee-daily-count': { value: '<n>', help: 'payouts to one payee account per local day' },
      reason: REASON,
    },
    changes: true,
    schema: SetLimitsBodySchema,
    request: (body) => ({ method: 'POST', path: '/ops/v1/limits', body }),
    print: (data) => [`Set: ${limitsLine(data)}`],
    examples: [
      'npm run ops -- limit:set --merchant M100001 --kind payout --daily-amount 50000.00 --per-order-max 10000.00 --reason "risk review"',
    ],
  },
  'limit:clear': {
    summary: "Clear a merchant's limits of a kind: those named with --limit, or all of them.",
    options: {
      merchant: MERCHANT,
      mode: MODE,
      kind: KIND,
      limit: {
        value: '<name,...>',
        help: 'per_order_min, per_order_max, daily_amount, daily_count, payee_daily_count (default all)',
      },
      reason: REASON,
    },
    changes: true,
    schema: ClearLimitsBodySchema,
    request: (body) => ({ method: 'POST', path: '/ops/v1/limits/clear', body }),
    print: (data) => [
      `Cleared ${((data.cleared as string[]) ?? []).join(', ') || 'nothing'}: ${limitsLine(data)}`,
    ],
    examples: [
      'npm run ops -- limit:clear --merchant M100001 --kind payout --limit daily_amount --reason "review ended"',
    ],
  },
  'limit:list': {
    summary: "A merchant's limits of every kind, with what today's orders used of them.",
    options: { merchant: MERCHANT, mode: MODE },
    changes: false,
    schema: ListLimitsQuerySchema,
    request: (q) => ({ method: 'GET', path: `/ops/v1/limits?${queryOf(q)}` }),
    print: (data) => {
      const rows = (data as unknown as Data[]) ?? [];
      if (rows.length === 0) return ['No limits.'];
      return table(
        ['KIND', 'CURRENCY', 'MIN', 'MAX', 'DAILY AMOUNT', 'DAILY COUNT', 'PER PAYEE', 'USED TODAY', 'DAY'],
        rows.map((r) => [
          String(r.kind),
          String(r.currency),
          show(r.per_order_min),
          show(r.per_order_max),
          show(r.daily_amount),
          show(r.daily_count),
          show(r.payee_daily_count),
          `${String(r.used_amount)} / ${String(r.used_count)}`,
          String(r.day),
        ]),
      );
    },
    examples: ['npm run ops -- limit:list --merchant M100001'],
  },
  'block:add': {
    summary: "Put a payee account, wallet address or payer IP on a merchant's block list.",
    options: { merchant: MERCHANT, mode: MODE, list: LIST, value: VALUE, reason: REASON },
    changes: true,
    schema: BlockBodySchema,
    request: (body) => ({ method: 'POST', path: '/ops/v1/blocks', body }),
    print: (data) => [
      `${data.added === false ? 'Already blocked' : 'Blocked'}: ${String(data.value)} on ${String(data.merchant)}'s ${String(data.list)} list (${String(data.mode)}).`,
    ],
    examples: [
      'npm run ops -- block:add --merchant M100001 --list payer_ip --value 203.0.113.0/24 --reason "card testing"',
    ],
  },
  'block:remove': {
    summary: "Take an entry off a merchant's block list.",
    options: { merchant: MERCHANT, mode: MODE, list: LIST, value: VALUE, reason: REASON },
    changes: true,
    schema: BlockBodySchema,
    request: (body) => ({ method: 'POST', path: '/ops/v1/blocks/remove', body }),
    print: (data) => [
      `Removed: ${String(data.value)} from ${String(data.merchant)}'s ${String(data.list)} list (${String(data.mode)}).`,
    ],
    examples: [
      'npm run ops -- block:remove --merchant M100001 --list payee_account --value 6222020000000001 --reason "cleared by compliance"',
    ],
  },
  'block:list': {
    summary: "A merchant's block lists (or one of them).",
    options: { merchant: MERCHANT, mode: MODE, list: { ...LIST, required: false } },
    changes: false,
    schema: ListBlocksQuerySchema,
    request: (q) => ({ method: 'GET', path: `/ops/v1/blocks?${queryOf(q)}` }),
    print: (data) => {
      const rows = (data as unknown as Data[]) ?? [];
      if (rows.length === 0) return ['No entries.'];
      return table(
        ['LIST', 'VALUE', 'BY', 'AT', 'REASON'],
        rows.map((r) => [
          String(r.list),
          String(r.value),
          String(r.created_by),
          String(r.created_at),
          String(r.reason),
        ]),
      );
    },
    examples: ['npm run ops -- block:list --merchant M100001 --list wallet_address'],
  },
};
