import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { groupDecimal } from '@paydesk/shared';
import {
  CloseChannelBodySchema,
  DemoTrafficOptionsSchema,
  RunSettlementBodySchema,
  SandboxCompleteBodySchema,
  ListChannelsQuerySchema,
  OpenChannelBodySchema,
  CreateMerchantBodySchema,
  CreateOperatorTokenBodySchema,
  RevokeOperatorTokenBodySchema,
  CreateUserBodySchema,
  MoveFundsBodySchema,
  UnfreezeBodySchema,
  VerifyQuerySchema,
  ListWithdrawalsQuerySchema,
  PayWithdrawalBodySchema,
  RejectWithdrawalBodySchema,
  WithdrawalDecisionBodySchema,
  OPERATOR_HEADER,
  OPERATOR_SCOPES,
} from '../modules/ops/index.ts';
import type { OpsRequest, OpsResponse, OpsTransport } from './transport.ts';
import { TOPUP_COMMANDS } from './topup-commands.ts';

// `npm run ops -- <command> [options]`: the operator API's command line (DESIGN section 10).

type OptionSpec = {
  /** The value's placeholder, e.g. "<no>"; absent for a flag. */
  value?: string;
  required?: boolean;
  help: string;
};

type Values = Record<string, string | boolean | undefined>;

export type RunContext = {
  input: Record<string, unknown>;
  send: (
    request: OpsRequest,
  ) => Promise<{ status: number; data?: Record<string, unknown>; message?: string }>;
  io: { out(text: string): void; err(text: string): void };
  json: boolean;
  /** The answer's bytes (topup:show's screenshot). */
  sendRaw: (request: OpsRequest) => Promise<OpsResponse>;
};
type Data = Record<string, unknown>;

export type CommandSpec = {
  summary: string;
  options: Record<string, OptionSpec>;
  /** A change: --reason is required and the request carries an Idempotency-Key. */
  changes: boolean;
  /** Checked before anything is sent, with the same schema the server uses. */
  schema: z.ZodType;
  request: (input: Data) => OpsRequest;
  print: (data: Data, values: Values) => string[];
  /** Exit code for a successful answer (ledger:verify fails when the ledger is broken). */
  exitCode?: (data: Data) => number;
  /** A command that sends its request many times (demo:traffic) instead of once. */
  run?: (context: RunContext) => Promise<number>;
  examples: string[];
};

const MERCHANT: OptionSpec = { value: '<no>', required: true, help: 'merchant number, e.g. M100001' };
const AMOUNT: OptionSpec = {
  value: '<amount>',
  required: true,
  help: "decimal amount in the merchant's currency, e.g. 100.00",
};
const REASON: OptionSpec = {
  value: '<text>',
  required: true,
  help: 'why (recorded with your name and the time)',
};
const NOTE: OptionSpec = { value: '<text>', help: 'note shown to the merchant on the fund flow entry' };

const GLOBAL_OPTIONS: Record<string, OptionSpec> = {
  operator: {
    value: '<name>',
    help: 'your name, recorded with every change (default: $PAYDESK_OPERATOR or your login)',
  },
  json: { help: 'print the answer as JSON' },
  help: { help: 'show this help' },
};

type Money = { total: string; available: string; locked: string; currency: string };
type Entry = { id: number; type: string; amount: string; available_after: string; ref_no: string | null };
type MerchantView = { no: string; name: string; currency: string; status: string; balance?: Money };

const money = (amount: string, currency: string) => `${groupDecimal(amount)} ${currency}`;
const balanceLine = (b: Money) =>
  `Balance: available ${money(b.available, b.currency)}, locked ${money(b.locked, b.currency)}, total ${money(b.total, b.currency)}.`;

type ChannelView = {
  merchant: string;
  code: string;
  kind: string;
  status: string;
  currency: string;
  fee_rate: string;
  fixed_fee: string;
  min_amount: string;
  max_amount: string;
  settlement_cycle: string | null;
  sandbox_mode: string;
};

const channelLine = (c: ChannelView) =>
  `${c.merchant} ${c.kind} channel ${c.code} (${c.status}): fee ${c.fee_rate}% + ${c.fixed_fee} ${c.currency}, ` +
  `${c.min_amount} to ${c.max_amount}${c.settlement_cycle ? `, settles ${c.settlement_cycle}` : ''}, sandbox ${c.sandbox_mode}.`;

function fundsResult(verb: string) {
  return (data: Data) => {
    const merchant = data.merchant as MerchantView;
    const entry = data.entry as Entry;
    const amount = entry.amount.replace(/^-/, '');
    return [
      `${verb} ${money(amount, merchant.currency)} ${verb === 'Transferred' ? (entry.amount.startsWith('-') ? 'out of' : 'in to') : 'of'} ${merchant.no} (${merchant.name}).`,
      `Fund flow entry #${entry.id} (${entry.type}), reference ${entry.ref_no}; operator action #${String(data.action_id)}.`,
      balanceLine(data.balance as Money),
    ];
  };
}

type WithdrawalView = {
  merchant: string;
  withdrawal_no: string;
  status: string;
  network: string;
  address: string;
  amount: string;
  fee: string;
  local_currency: string;
  local_total: string;
  tx_hash: string | null;
  reject_reason: string | null;
  created_at: string;
};

const withdrawalLine = (w: WithdrawalView) =>
  `${w.withdrawal_no} of ${w.merchant}: ${groupDecimal(w.amount)} USDT (fee ${w.fee}) to ${w.address} on ${w.network}, ` +
  `held ${money(w.local_total, w.local_currency)}; ${w.status}` +
  `${w.tx_hash ? `, tx ${w.tx_hash}` : ''}${w.reject_reason ? `, reason: ${w.reject_reason}` : ''}.`;

const WITHDRAWAL_NO: OptionSpec = { value: '<no>', required: true, help: 'the withdrawal number (W...)' };

function withdrawalDecided(data: Data): string[] {
  return [withdrawalLine(data.withdrawal as WithdrawalView), balanceLine(data.balance as Money)];
}

// Withdrawals (DESIGN sections 4 and 10): pending_review -> approved -> paid | rejected (from either).
const WITHDRAWAL_COMMANDS: Record<string, CommandSpec> = {
  'withdrawal:list': {
    summary: "List withdrawals, newest first: every merchant's or one's, optionally of one status.",
    options: {
      merchant: { value: '<no>', help: 'only this merchant' },
      status: { value: 'pending_review|approved|paid|rejected', help: 'only this status' },
      limit: { value: '<n>', help: 'at most this many (default 50)' },
    },
    changes: false,
    schema: ListWithdrawalsQuerySchema,
    request: (query) => {
      const params = new URLSearchParams(
        Object.entries(query)
          .filter(([, v]) => v !== undefined)
          .map(([k, v]): [string, string] => [k, String(v)]),
      );
      return { method: 'GET', path: `/ops/v1/withdrawals?${params}` };
    },
    print: (data) =>
      table(
        ['NO', 'MERCHANT', 'STATUS', 'AMOUNT USDT', 'FEE', 'NETWORK', 'ADDRESS', 'HELD', 'CREATED'],
        (data as unknown as WithdrawalView[]).map((w) => [
          w.withdrawal_no,
          w.merchant,
          w.status,
          groupDecimal(w.amount),
          w.fee,
          w.network,
          w.address,
          money(w.local_total, w.local_currency),
          w.created_at,
        ]),
      ),
    examples: [
      'npm run ops -- withdrawal:list --status pending_review',
      'npm run ops -- withdrawal:list --merchant M100001 --json',
    ],
  },
  'withdrawal:approve': {
    summary: 'Approve a withdrawal under review (it stays held until paid or rejected).',
    options: { no: WITHDRAWAL_NO, reason: REASON },
    changes: true,
    schema: WithdrawalDecisionBodySchema,
    request: (body) => ({ method: 'POST', path: '/ops/v1/withdrawals/approve', body }),
    print: withdrawalDecided,
    examples: ['npm run ops -- withdrawal:approve --no W20261123101500123456 --reason "address verified"'],
  },
  'withdrawal:pay': {
    summary: 'Record an approved withdrawal as paid on chain, with its transaction hash.',
    options: {
      no: WITHDRAWAL_NO,
      'tx-hash': {
        value: '<hash>',
        required: true,
        help: 'the transaction hash (TRC20: 64 hex digits; ERC20: 0x + 64 hex digits)',
      },
      reason: REASON,
    },
    changes: true,
    schema: PayWithdrawalBodySchema,
    request: (body) => ({ method: 'POST', path: '/ops/v1/withdrawals/pay', body }),
    print: withdrawalDecided,
    examples: [
      'npm run ops -- withdrawal:pay --no W20261123101500123456 --tx-hash 3f5a9c0e7b2d4a6c8e1f3b5d7a9c0e2f4b6d8a1c3e5f7b9d0a2c4e6f8b1d3a5c --reason "sent from hot wallet"',
    ],
  },
  'withdrawal:reject': {
    summary:
      'Reject a withdrawal under review or approved: amount + fee go back to available; the reason is shown to the merchant.',
    options: {
      no: WITHDRAWAL_NO,
      from: {
        value: 'pending_review|approved',
        help: 'the state you reject (default pending_review; an approved one only when you say approved)',
      },
      reason: REASON,
    },
    changes: true,
    schema: RejectWithdrawalBodySchema,
    request: (body) => ({ method: 'POST', path: '/ops/v1/withdrawals/reject', body }),
    print: withdrawalDecided,
    examples: [
      'npm run ops -- withdrawal:reject --no W20261123101500123456 --reason "the wallet address is on a sanctions list"',
      'npm run ops -- withdrawal:reject --no W20261123101500123456 --from approved --reason "chain congested, merchant asked to cancel"',
    ],
  },
};

export const COMMANDS: Record<string, CommandSpec> = {
  'merchant:list': {
    summary: 'List merchants with their balances.',
    options: {},
    changes: false,
    schema: z.object({}),
    request: () => ({ method: 'GET', path: '/ops/v1/merchants' }),
    print: (data) => {
      const rows = (data as unknown as MerchantView[]).map((m) => [
        m.no,
        m.name,
        m.currency,
        m.status,
        groupDecimal(m.balance!.available),
        groupDecimal(m.balance!.locked),
        groupDecimal(m.balance!.total),
      ]);
      return table(['NO', 'NAME', 'CURRENCY', 'STATUS', 'AVAILABLE', 'LOCKED', 'TOTAL'], rows);
    },
    examples: ['npm run ops -- merchant:list', 'npm run ops -- merchant:list --json'],
  },
  'merchant:create': {
    summary: 'Create a merchant.',
    options: {
      name: { value: '<name>', required: true, help: 'display name' },
      currency: {
        value: '<code>',
        required: true,
        help: 'settlement currency: CNY, INR, BRL, VND, USD or USDT',
      },
      no: { value: '<no>', help: 'merchant number (default: the next M<number>)' },
      reason: REASON,
    },
    changes: true,
    schema: CreateMerchantBodySchema,
    request: (body) => ({ method: 'POST', path: '/ops/v1/merchants', body }),
    print: (data) => {
      const m = data.merchant as MerchantView;
      return [`Created merchant ${m.no} (${m.name}, ${m.currency}).`];
    },
    examples: [
      'npm run ops -- merchant:create --name "Acme Ltd" --currency INR --reason "signed 2026-03-01"',
    ],
  },
  'user:create': {
    summary: "Create a user of a merchant's console with a role.",
    options: {
      merchant: MERCHANT,
      email: { value: '<email>', required: true, help: 'login email' },
      name: { value: '<name>', required: true, help: "the person's name" },
      role: { value: '<role>', required: true, help: 'ROOT, FINANCE, OPERATOR or VIEWER' },
      password: { value: '<password>', help: 'initial password (default: generated and shown once)' },
      reason: REASON,
    },
    changes: true,
    schema: CreateUserBodySchema,
    request: (body) => ({ method: 'POST', path: '/ops/v1/users', body }),
    print: (data) => {
      const user = data.user as { id: number; email: string; roles: string[]; merchant: string };
      const lines = [
        `Created ${user.roles.join(', ')} user ${user.email} (#${user.id}) for ${user.merchant}.`,
      ];
      if (data.generated_password) lines.push(`Password (shown once): ${String(data.generated_password)}`);
      return lines;
    },
    examples: [
      'npm run ops -- user:create --merchant M100001 --email ana@acme.test --name "Ana" --role FINANCE --reason "new finance lead"',
    ],
  },
  'funds:transfer-in': {
    summary: "Move money into a merchant's available balance (fund flow: funds transfer in).",
    options: { merchant: MERCHANT, amount: AMOUNT, reason: REASON, note: NOTE },
    changes: true,
    schema: MoveFundsBodySchema,
    request: (body) => ({ method: 'POST', path: '/ops/v1/funds/transfer-in', body }),
    print: fundsResult('Transferred'),
    examples: [
      'npm run ops -- funds:transfer-in --merchant M100001 --amount 1000.00 --reason "wire 2026-03-01"',
    ],
  },
  'funds:transfer-out': {
    summary: "Move money out of a merchant's available balance (fund flow: funds transfer out).",
    options: { merchant: MERCHANT, amount: AMOUNT, reason: REASON, note: NOTE },
    changes: true,
    schema: MoveFundsBodySchema,
    request: (body) => ({ method: 'POST', path: '/ops/v1/funds/transfer-out', body }),
    print: fundsResult('Transferred'),
    examples: [
      'npm run ops -- funds:transfer-out --merchant M100001 --amount 250.00 --reason "fee correction"',
    ],
  },
  'funds:freeze': {
    summary: 'Freeze part of the available balance (it moves to locked until unfrozen).',
    options: { merchant: MERCHANT, amount: AMOUNT, reason: REASON, note: NOTE },
    changes: true,
    schema: MoveFundsBodySchema,
    request: (body) => ({ method: 'POST', path: '/ops/v1/funds/freeze', body }),
    print: (data) => [
      ...fundsResult('Froze')(data),
      `Freeze #${String(data.freeze_id)}: lift it with funds:unfreeze --merchant ${(data.merchant as MerchantView).no} --freeze ${String(data.freeze_id)}.`,
    ],
    examples: [
      'npm run ops -- funds:freeze --merchant M100001 --amount 500.00 --reason "chargeback dispute #88"',
    ],
  },
  'funds:unfreeze': {
    summary: 'Lift a freeze: the frozen amount goes back to available.',
    options: {
      merchant: MERCHANT,
      freeze: { value: '<id>', required: true, help: 'the freeze number funds:freeze printed' },
      reason: REASON,
      note: NOTE,
    },
    changes: true,
    schema: UnfreezeBodySchema,
    request: (body) => ({ method: 'POST', path: '/ops/v1/funds/unfreeze', body }),
    print: fundsResult('Unfroze'),
    examples: ['npm run ops -- funds:unfreeze --merchant M100001 --freeze 3 --reason "dispute closed"'],
  },
  'channel:open': {
    summary: "Open a channel for a merchant (or open it again with new terms); merchants' orders use it.",
    options: {
      merchant: MERCHANT,
      code: { value: '<code>', required: true, help: 'what merchants send as channel, e.g. sandbox' },
      kind: { value: 'collection|payout', required: true, help: 'what the channel does' },
      country: { value: 'CN|IN|BR|VN', help: "default: the merchant's currency's country" },
      'fee-rate': { value: '<percent>', required: true, help: 'fee rate in percent, e.g. 1.5' },
      'fixed-fee': { value: '<amount>', help: 'fixed fee per order (default 0)' },
      'min-amount': { value: '<amount>', required: true, help: 'smallest order amount' },
      'max-amount': { value: '<amount>', required: true, help: 'largest order amount' },
      cycle: { value: 'T0|T1', help: 'settlement cycle of a collection channel (default T1)' },
      'expiry-minutes': { value: '<n>', help: 'minutes before an unpaid collection closes (default 30)' },
      'sandbox-mode': { value: 'manual|auto', help: 'auto: orders finish by themselves (demo traffic)' },
      'success-rate': { value: '<percent>', help: 'auto mode: share of orders paid (default 90)' },
      'delay-seconds': { value: '<n>', help: 'auto mode: seconds before an order finishes (default 5)' },
      reason: REASON,
    },
    changes: true,
    schema: OpenChannelBodySchema,
    request: (body) => ({ method: 'POST', path: '/ops/v1/channels/open', body }),
    print: (data) => [`Opened: ${channelLine(data.channel as ChannelView)}`],
    examples: [
      'npm run ops -- channel:open --merchant M100001 --code sandbox --kind collection --fee-rate 1.5 --min-amount 1.00 --max-amount 50000.00 --cycle T1 --reason "onboarding"',
    ],
  },
  'channel:close': {
    summary: 'Close a channel: new orders can no longer use it (orders already made go on).',
    options: {
      merchant: MERCHANT,
      code: { value: '<code>', required: true, help: 'the channel code' },
      kind: { value: 'collection|payout', required: true, help: 'the channel kind' },
      reason: REASON,
    },
    changes: true,
    schema: CloseChannelBodySchema,
    request: (body) => ({ method: 'POST', path: '/ops/v1/channels/close', body }),
    print: (data) => [`Closed: ${channelLine(data.channel as ChannelView)}`],
    examples: [
      'npm run ops -- channel:close --merchant M100001 --code sandbox --kind payout --reason "bank outage"',
    ],
  },
  'channel:list': {
    summary: "List channels, every merchant's or one's.",
    options: { merchant: { value: '<no>', help: 'only this merchant' } },
    changes: false,
    schema: ListChannelsQuerySchema,
    request: (query) => ({
      method: 'GET',
      path: `/ops/v1/channels${query.merchant ? `?merchant=${encodeURIComponent(String(query.merchant))}` : ''}`,
    }),
    print: (data) => {
      const rows = (data as unknown as ChannelView[]).map((c) => [
        c.merchant,
        c.kind,
        c.code,
        c.status,
        c.currency,
        `${c.fee_rate}% + ${c.fixed_fee}`,
        `${c.min_amount} - ${c.max_amount}`,
        c.settlement_cycle ?? '',
        c.sandbox_mode,
      ]);
      return table(['MERCHANT', 'KIND', 'CODE', 'STATUS', 'CUR', 'FEE', 'LIMITS', 'CYCLE', 'SANDBOX'], rows);
    },
    examples: ['npm run ops -- channel:list', 'npm run ops -- channel:list --merchant M100001 --json'],
  },
  'settlement:run': {
    summary:
      "Settle paid collections now, per channel and cycle (T+1: those paid before today, merchant's zone).",
    options: { reason: REASON },
    changes: true,
    schema: RunSettlementBodySchema,
    request: (body) => ({ method: 'POST', path: '/ops/v1/settlements/run', body }),
    print: (data) => {
      const posted = data.posted as {
        settlement_no: string;
        channel: string;
        order_count: number;
        gross: string;
        fee: string;
        net: string;
        currency: string;
      }[];
      if (posted.length === 0) return ['Nothing to settle.'];
      return [
        `Settled ${posted.length} batch(es):`,
        ...posted.map(
          (s) =>
            `  ${s.settlement_no}  ${s.channel}  ${s.order_count} orders  gross ${groupDecimal(s.gross)}  fee ${groupDecimal(s.fee)}  net ${groupDecimal(s.net)} ${s.currency}`,
        ),
      ];
    },
    examples: ['npm run ops -- settlement:run --reason "end of day"'],
  },
  'sandbox:complete': {
    summary:
      'Finish a sandbox order at will: a collection paid or failed, a payout success, failed or refunded (its callback goes out).',
    options: {
      'trade-no': {
        value: '<trade_no>',
        required: true,
        help: 'the collection (C...) or payout (P...) number',
      },
      result: { value: 'paid|failed|success|refunded', required: true, help: 'how it ends' },
      reason: REASON,
    },
    changes: true,
    schema: SandboxCompleteBodySchema,
    request: (body) => ({ method: 'POST', path: '/ops/v1/sandbox/complete', body }),
    print: (data) => [`${String(data.trade_no)} is now ${String(data.status)}.`],
    examples: [
      'npm run ops -- sandbox:complete --trade-no C20261123101500123456 --result paid --reason "test"',
    ],
  },
  'demo:traffic': {
    summary:
      "Demo traffic: collections for a merchant through its real signed gateway route, at a rate for a time; the sandbox's auto channel pays or fails them by itself.",
    options: {
      merchant: MERCHANT,
      rate: { value: '<per second>', help: 'orders per second (default 2)' },
      duration: { value: '<seconds>', help: 'how long (default 60)' },
      channel: { value: '<code>', help: 'the collection channel (default sandbox-auto, the auto mode)' },
      payouts: {
        value: '<percent>',
        help: 'share of the orders that are payouts on sandbox-pay (default 30)',
      },
      reason: {
        value: '<text>',
        help: 'why, recorded with your name on every order (default "demo traffic")',
      },
    },
    // Each order is an operator action of its own (it signs with the merchant's secret), with the reason.
    changes: false,
    schema: DemoTrafficOptionsSchema,
    request: (input) => ({
      method: 'POST',
      path: '/ops/v1/demo/collections',
      body: { merchant: input.merchant, channel: input.channel, reason: input.reason },
    }),
    print: (data) => [JSON.stringify(data)],
    run: async ({ input, send, io, json }) => {
      const rate = Number(input.rate);
      const total = Math.max(1, Math.round(rate * Number(input.duration)));
      const counts = new Map<string, number>();
      const tradeNos: string[] = [];
      const inFlight: Promise<void>[] = [];
      const started = Date.now();
      for (let i = 0; i < total; i++) {
        const due = started + (i * 1000) / rate;
        if (due > Date.now()) await new Promise((resolve) => setTimeout(resolve, due - Date.now()));
        // Every n-th order a payout, spread evenly: 30% -> 3 of every 10.
        const share = Number(input.payouts ?? 0) / 100;
        const isPayout = Math.floor((i + 1) * share) > Math.floor(i * share);
        const request: OpsRequest = isPayout
          ? {
              method: 'POST',
              path: '/ops/v1/demo/payouts',
              body: { merchant: input.merchant, reason: input.reason },
            }
          : COMMANDS['demo:traffic'].request(input);
        const kind = isPayout ? 'payout' : 'collection';
        inFlight.push(
          send(request).then((answer) => {
            const data = answer.data ?? {};
            const key =
              answer.status !== 200
                ? `error ${answer.status}: ${answer.message ?? ''}`
                : data.gateway_status === 201
                  ? `${kind}s created`
                  : `${kind}s refused ${String(data.gateway_status)} ${String(data.code ?? '')}`;
            counts.set(key, (counts.get(key) ?? 0) + 1);
            if (data.gateway_status === 201 && tradeNos.length < 100) tradeNos.push(String(data.trade_no));
          }),
        );
      }
      await Promise.all(inFlight);
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      const summary = Object.fromEntries(counts);
      if (json) {
        // The first 100 order numbers, for scripts that follow them up.
        io.out(
          JSON.stringify(
            { sent: total, seconds: Number(seconds), results: summary, trade_nos: tradeNos },
            null,
            2,
          ),
        );
      } else {
        io.out(`Sent ${total} order(s) for ${String(input.merchant)} in ${seconds} s:`);
        for (const [key, count] of counts) io.out(`  ${key}: ${count}`);
        io.out(
          'The sandbox finishes them within seconds (collections on sandbox-auto, every payout); callbacks follow.',
        );
      }
      const created = (counts.get('collections created') ?? 0) + (counts.get('payouts created') ?? 0);
      return created > 0 ? EXIT.ok : EXIT.failed;
    },
    examples: ['npm run ops -- demo:traffic --merchant M100001 --rate 5 --duration 60'],
  },
  'ledger:verify': {
    summary: 'Check every ledger invariant, for one merchant or all; exits 1 and lists each broken one.',
    options: { merchant: { value: '<no>', help: 'only this merchant (default: all)' } },
    changes: false,
    schema: VerifyQuerySchema,
    request: (query) => ({
      method: 'GET',
      path: `/ops/v1/ledger/verify${query.merchant ? `?merchant=${encodeURIComponent(String(query.merchant))}` : ''}`,
    }),
    print: (data) => {
      const report = data as {
        ok: boolean;
        merchants_checked: number;
        entries_checked: number;
        problems: { merchant_no: string; invariant: string; message: string }[];
        truncated: boolean;
      };
      const checked = `${report.merchants_checked} merchant(s), ${report.entries_checked} entries checked`;
      if (report.ok) return [`Ledger OK: ${checked}.`];
      return [
        `Ledger BROKEN: ${report.problems.length}${report.truncated ? '+' : ''} problem(s), ${checked}.`,
        ...report.problems.map((p) => `  ${p.merchant_no}  ${p.invariant}: ${p.message}`),
        ...(report.truncated ? ['  (more not listed)'] : []),
      ];
    },
    exitCode: (data) => (data.ok ? 0 : 1),
    examples: ['npm run ops -- ledger:verify', 'npm run ops -- ledger:verify --merchant M100001 --json'],
  },
  'operator:token-create': {
    summary:
      "Create a named operator's token with its scopes and expiry (printed once; only its hash is kept; needs admin).",
    options: {
      name: { value: '<operator>', required: true, help: "the operator's name, recorded with their changes" },
      scopes: {
        value: '<list>',
        required: true,
        help: `what it may do, comma-separated: ${OPERATOR_SCOPES.join(', ')} (none implies another; at most your own token's)`,
      },
      'expires-in': {
        value: '<30d|12h>',
        help: 'how long it works, in days or hours (default 90d, at most 365d)',
      },
      reason: REASON,
    },
    changes: true,
    schema: CreateOperatorTokenBodySchema,
    request: (body) => ({ method: 'POST', path: '/ops/v1/operator-tokens', body }),
    print: (data) => {
      const token = data.token as TokenView;
      return [
        `Created operator token #${token.id} for ${token.name}: ${token.scopes.join(', ')}; expires ${token.expires_at ?? 'never'}.`,
        ...(typeof data.secret === 'string'
          ? [`Token (shown once, keep it secret): ${data.secret}`]
          : ['(A repeat of an earlier request: the token was shown then and is not shown again.)']),
      ];
    },
    examples: [
      'npm run ops -- operator:token-create --name alice --scopes read,review --expires-in 30d --reason "new on-call operator"',
    ],
  },
  'operator:token-list': {
    summary: 'List operator tokens with their scopes and expiry (never their secrets; needs admin).',
    options: {},
    changes: false,
    schema: z.object({}),
    request: () => ({ method: 'GET', path: '/ops/v1/operator-tokens' }),
    print: (data) =>
      table(
        ['ID', 'OPERATOR', 'KIND', 'SCOPES', 'STATUS', 'EXPIRES', 'CREATED', 'LAST USED', 'REVOKED'],
        (data as unknown as TokenView[]).map((t) => [
          String(t.id),
          t.name,
          t.is_local ? 'local' : 'named',
          t.scopes.join(','),
          t.revoked_at ? 'revoked' : t.expired ? 'expired' : 'live',
          t.expires_at ?? 'never',
          t.created_at,
          t.last_used_at ?? '-',
          t.revoked_at ?? '-',
        ]),
      ),
    examples: ['npm run ops -- operator:token-list', 'npm run ops -- operator:token-list --json'],
  },
  'operator:token-revoke': {
    summary: 'Revoke an operator token: it stops working at once.',
    options: {
      id: { value: '<id>', required: true, help: 'the token number operator:token-list prints' },
      reason: REASON,
    },
    changes: true,
    schema: RevokeOperatorTokenBodySchema,
    request: (body) => ({ method: 'POST', path: '/ops/v1/operator-tokens/revoke', body }),
    print: (data) => {
      const token = data.token as TokenView;
      return [`Revoked operator token #${token.id} of ${token.name}.`];
    },
    examples: ['npm run ops -- operator:token-revoke --id 3 --reason "left the team"'],
  },
  'ledger:trial-balance': {
    summary:
      "Print every platform account and all merchants' balances per currency, and their total (zero when the books balance).",
    options: {},
    changes: false,
    schema: z.object({}),
    request: () => ({ method: 'GET', path: '/ops/v1/ledger/trial-balance' }),
    print: (data) => {
      const report = data as unknown as TrialBalanceView;
      if (report.currencies.length === 0) return ['No accounts yet: nothing has moved.'];
      const lines: string[] = [];
      for (const c of report.currencies) {
        const rows = [
          ...c.accounts.map((a) => [a.code, money(a.balance, c.currency)]),
          [`merchants available (${c.merchants.count})`, money(c.merchants.available, c.currency)],
          [`merchants locked (${c.merchants.count})`, money(c.merchants.locked, c.currency)],
          ['total', money(c.total, c.currency)],
        ];
        // Amounts right-aligned, so the digits line up.
        const width = Math.max(...rows.map((r) => r[1].length));
        lines.push(`${c.currency}:`);
        lines.push(
          ...table(
            ['account', 'balance'.padStart(width)],
            rows.map(([account, amount]) => [account, amount.padStart(width)]),
          ).map((line) => `  ${line}`),
        );
      }
      lines.push(report.balanced ? 'Balanced: every currency sums to zero.' : 'NOT BALANCED.');
      return lines;
    },
    exitCode: (data) => (data.balanced ? 0 : 1),
    examples: ['npm run ops -- ledger:trial-balance', 'npm run ops -- ledger:trial-balance --json'],
  },
  ...WITHDRAWAL_COMMANDS,
  ...TOPUP_COMMANDS,
};

type TokenView = {
  id: number;
  name: string;
  is_local: boolean;
  scopes: string[];
  expires_at: string | null;
  expired: boolean;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
};

type TrialBalanceView = {
  balanced: boolean;
  currencies: {
    currency: string;
    accounts: { code: string; balance: string }[];
    merchants: { available: string; locked: string; count: number };
    total: string;
  }[];
};

function table(header: string[], rows: string[][]): string[] {
  if (rows.length === 0) return ['(none)'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)];
}

export function commandUsage(name: string): string {
  const spec = COMMANDS[name];
  const all = { ...spec.options, ...GLOBAL_OPTIONS };
  const synopsis = Object.entries(spec.options)
    .map(([key, o]) => {
      const text = `--${key}${o.value ? ` ${o.value}` : ''}`;
      return o.required ? text : `[${text}]`;
    })
    .join(' ');
  const width =
    Math.max(...Object.entries(all).map(([k, o]) => k.length + (o.value ? o.value.length + 1 : 0))) + 4;
  return [
    `Usage: npm run ops -- ${name} ${synopsis} [--operator <name>] [--json]`.replace(
      /\s+\[--operator/,
      ' [--operator',
    ),
    '',
    spec.summary,
    '',
    'Options:',
    ...Object.entries(all).map(
      ([key, o]) =>
        `  ${`--${key}${o.value ? ` ${o.value}` : ''}`.padEnd(width)}${o.help}${o.required ? ' (required)' : ''}`,
    ),
    '',
    'Examples:',
    ...spec.examples.map((e) => `  ${e}`),
  ].join('\n');
}

export function generalUsage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((c) => c.length)) + 2;
  return [
    'Usage: npm run ops -- <command> [options]',
    '',
    'Commands:',
    ...Object.entries(COMMANDS).map(([name, spec]) => `  ${name.padEnd(width)}${spec.summary}`),
    '',
    'Each command takes --help. Changes need --reason and record your name (--operator), the time and the reason.',
    'The command calls the server running on this DATA_DIR, or, when none runs, the same API in this process.',
  ].join('\n');
}

export type OpsIo = { out: (text: string) => void; err: (text: string) => void };
export type RunOptions = {
  io: OpsIo;
  /** Opened only once the arguments are valid: a bad argument touches nothing. */
  connect: () => Promise<OpsTransport>;
  defaultOperator: string;
};

export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

/** Runs one command line; answers the exit code. */
export async function runOps(argv: string[], { io, connect, defaultOperator }: RunOptions): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.out(generalUsage());
    return name ? EXIT.ok : EXIT.usage;
  }
  const spec = COMMANDS[name];
  if (!spec) {
    io.err(`Unknown command: ${name}\n\n${generalUsage()}`);
    return EXIT.usage;
  }
  const usageError = (messages: string[]) => {
    io.err(`${messages.map((m) => `Error: ${m}`).join('\n')}\n\n${commandUsage(name)}`);
    return EXIT.usage;
  };

  let values: Values;
  try {
    const options = Object.fromEntries(
      Object.entries({ ...spec.options, ...GLOBAL_OPTIONS }).map(([key, o]) => [
        key,
        {
          type: o.value ? ('string' as const) : ('boolean' as const),
          ...(key === 'help' ? { short: 'h' } : {}),
        },
      ]),
    );
    values = parseArgs({ args: rest, options, strict: true, allowPositionals: false }).values as Values;
  } catch (error) {
    return usageError([(error as Error).message.split('\n')[0]]);
  }
  if (values.help) {
    io.out(commandUsage(name));
    return EXIT.ok;
  }
  const missing = Object.entries(spec.options)
    .filter(([key, o]) => o.required && (values[key] === undefined || values[key] === ''))
    .map(([key]) => `--${key} is required.`);
  if (missing.length) return usageError(missing);

  // --fee-rate is the API's fee_rate.
  const input = Object.fromEntries(
    Object.keys(spec.options)
      .filter((key) => values[key] !== undefined)
      .map((key) => [key.replaceAll('-', '_'), values[key]]),
  );
  const parsed = spec.schema.safeParse(input);
  if (!parsed.success) {
    return usageError(
      parsed.error.issues.map((i) =>
        i.path.length ? `--${i.path.join('.').replaceAll('_', '-')}: ${i.message}` : i.message,
      ),
    );
  }
  const operator = String(values.operator ?? defaultOperator).trim();

  let transport: OpsTransport;
  try {
    transport = await connect();
  } catch (error) {
    io.err(`Error: ${(error as Error).message}`);
    return EXIT.failed;
  }
  try {
    if (spec.run) {
      return await spec.run({
        input: parsed.data as Data,
        io,
        json: Boolean(values.json),
        sendRaw: (request) =>
          transport.request({
            ...request,
            raw: true,
            headers: { [OPERATOR_HEADER]: operator, ...request.headers },
          }),
        send: async (request) => {
          const response = await transport.request({
            ...request,
            headers: { [OPERATOR_HEADER]: operator, ...request.headers },
          });
          const body = (response.body ?? {}) as { data?: Data; message?: string };
          return { status: response.status, data: body.data, message: body.message };
        },
      });
    }
    const request = spec.request(parsed.data as Data);
    const response = await transport.request({
      ...request,
      headers: {
        [OPERATOR_HEADER]: operator,
        ...(spec.changes ? { 'idempotency-key': `cli-${randomUUID()}` } : {}),
        ...request.headers,
      },
    });
    const body = (response.body ?? {}) as {
      data?: Data;
      message?: string;
      code?: string;
      errors?: Record<string, string[]>;
    };
    if (response.status >= 200 && response.status < 300 && body.data !== undefined) {
      io.out(values.json ? JSON.stringify(body.data, null, 2) : spec.print(body.data, values).join('\n'));
      return spec.exitCode?.(body.data) ?? EXIT.ok;
    }
    if (values.json) io.err(JSON.stringify({ status: response.status, ...body }, null, 2));
    if (response.status === 422 && body.code !== 'insufficient_funds') {
      const fieldErrors = Object.entries(body.errors ?? {}).flatMap(([field, messages]) =>
        messages.map((m) => `--${field.replaceAll('_', '-')}: ${m}`),
      );
      return usageError(fieldErrors.length ? fieldErrors : [body.message ?? 'Invalid input data']);
    }
    if (!values.json) io.err(`Error (${response.status}): ${body.message ?? String(response.body)}`);
    return EXIT.failed;
  } catch (error) {
    io.err(`Error: ${(error as Error).message}`);
    return EXIT.failed;
  } finally {
    await transport.close();
  }
}
