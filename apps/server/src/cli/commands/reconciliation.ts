import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import {
  CloseDayBodySchema,
  ImportStatementBodySchema,
  ReconciliationQuerySchema,
  ResolveBodySchema,
} from '../../modules/reconciliation/index.ts';
import { type CommandSpec, type Data, MERCHANT, MODE, REASON, table } from './command-spec.ts';

// Statements and reconciliation of a bank transfer channel (DESIGN 13): statement:import, reconcile:show,
// reconcile:resolve, reconcile:close.

/** A path as typed: relative to where the command was typed (npm runs scripts from the package folder). */
const typedPath = (file: string) => path.resolve(process.env.INIT_CWD ?? process.cwd(), file);

const ImportStatementOptionsSchema = ImportStatementBodySchema.omit({
  content: true,
  file_name: true,
}).extend({
  file: z
    .string({ error: 'The file field is required.' })
    .refine((file) => existsSync(typedPath(file)), 'No such file.'),
});

const CHANNEL = { value: '<code>', required: true, help: 'the collection channel, e.g. vn-bank' };
const DATE = { value: '<yyyy-mm-dd>', required: true, help: "the statement's day" };

type Line = {
  id: number;
  txn_id: string;
  reference: string;
  amount: string;
  trade_no: string | null;
  problem: string | null;
};

export const RECONCILIATION_COMMANDS: Record<string, CommandSpec> = {
  'statement:import': {
    summary:
      "Import a channel's bank statement of a day (CSV, MT940 or camt.053): each payment applied once.",
    options: {
      merchant: MERCHANT,
      mode: MODE,
      channel: CHANNEL,
      date: DATE,
      format: { value: 'csv|mt940|camt053', required: true, help: "the file's format" },
      file: { value: '<path>', required: true, help: 'the statement file' },
      reason: REASON,
    },
    changes: true,
    schema: ImportStatementOptionsSchema,
    request: ({ file, ...rest }) => ({
      method: 'POST',
      path: '/ops/v1/statements/import',
      body: {
        ...rest,
        file_name: path.basename(String(file)),
        content: readFileSync(typedPath(String(file))).toString('base64'),
      },
    }),
    print: (data) => [
      `Imported ${String(data.lines)} credit line(s) of ${String(data.channel)} for ${String(data.date)}: ` +
        `${String(data.matched)} paid an order, ${String(data.review)} for review, ${String(data.unknown)} unknown, ` +
        `${String(data.seen)} seen before; ${String(data.debits_skipped)} debit line(s) left out.`,
    ],
    examples: [
      'npm run ops -- statement:import --merchant M100004 --channel vn-bank --date 2026-11-27 --format csv --file statement.csv --reason "daily statement"',
    ],
  },
  'reconcile:show': {
    summary: "A channel's day: matched, unknown payments, missing payments, differences, resolutions.",
    options: { merchant: MERCHANT, mode: MODE, channel: CHANNEL, date: DATE },
    changes: false,
    schema: ReconciliationQuerySchema,
    request: (q) => ({
      method: 'GET',
      path: `/ops/v1/reconciliations?${new URLSearchParams({
        merchant: String(q.merchant),
        mode: String(q.mode),
        channel: String(q.channel),
        date: String(q.date),
      })}`,
    }),
    print: (data) => {
      const lines = (key: string) => (data[key] as Line[]) ?? [];
      const rows = (key: string) =>
        lines(key).map((l) => [
          String(l.id),
          l.txn_id,
          l.amount,
          l.trade_no ?? '',
          l.problem ?? '',
          l.reference,
        ]);
      const header = ['PAYMENT', 'BANK TXN', 'AMOUNT', 'ORDER', 'PROBLEM', 'REFERENCE'];
      const missing = (data.missing as { trade_no: string; amount: string; paid_at: string }[]) ?? [];
      const statements = (data.statements as unknown[]) ?? [];
      return [
        `${String(data.channel)} ${String(data.date)} (${String(data.currency)}): ${String(data.status)}, ` +
          `${statements.length} statement(s) imported, ${String(data.left)} difference(s) left.`,
        '',
        `Matched (${lines('matched').length})`,
        ...table(header, rows('matched')),
        '',
        `Unknown payments (${lines('unknown').length})`,
        ...table(header, rows('unknown')),
        '',
        `Missing from the statement (${missing.length})`,
        ...table(
          ['ORDER', 'AMOUNT', 'PAID AT'],
          missing.map((m) => [m.trade_no, m.amount, m.paid_at]),
        ),
        '',
        `Differences (${lines('differences').length})`,
        ...table(header, rows('differences')),
        '',
        `Resolved (${((data.resolved as unknown[]) ?? []).length})`,
        ...table(
          ['ID', 'PAYMENT', 'ACTION', 'AMOUNT', 'BY', 'REASON'],
          ((data.resolved as Data[]) ?? []).map((r) => [
            String(r.id),
            String(r.payment_id ?? ''),
            String(r.action),
            String(r.amount ?? ''),
            String(r.resolved_by),
            String(r.reason),
          ]),
        ),
      ];
    },
    examples: ['npm run ops -- reconcile:show --merchant M100004 --channel vn-bank --date 2026-11-27'],
  },
  'reconcile:resolve': {
    summary: 'Resolve one difference with a reason: mark_paid, refund_to_payer or ledger_adjustment.',
    options: {
      merchant: MERCHANT,
      mode: MODE,
      channel: CHANNEL,
      date: DATE,
      payment: { value: '<id>', help: 'the payment (its id in reconcile:show)' },
      'trade-no': { value: '<C...>', help: 'a missing order, or the order an unknown payment pays' },
      action: { value: 'mark_paid|refund_to_payer|ledger_adjustment', required: true, help: 'what was done' },
      amount: {
        value: '<amount>',
        help: 'ledger_adjustment: into (10.00) or out of (--amount=-10.00) the balance',
      },
      reason: REASON,
    },
    changes: true,
    schema: ResolveBodySchema,
    request: (body) => ({ method: 'POST', path: '/ops/v1/reconciliations/resolve', body }),
    print: (data) => [`Resolved (${String(data.action)}): resolution ${String(data.resolution_id)}.`],
    examples: [
      'npm run ops -- reconcile:resolve --merchant M100004 --channel vn-bank --date 2026-11-27 --payment 12 --action refund_to_payer --reason "returned to the payer, bank ref 889"',
    ],
  },
  'reconcile:close': {
    summary: "Close a channel's day once no difference is left.",
    options: { merchant: MERCHANT, mode: MODE, channel: CHANNEL, date: DATE, reason: REASON },
    changes: true,
    schema: CloseDayBodySchema,
    request: (body) => ({ method: 'POST', path: '/ops/v1/reconciliations/close', body }),
    print: (data) => [`Closed: ${String(data.channel)} ${String(data.date)}.`],
    examples: [
      'npm run ops -- reconcile:close --merchant M100004 --channel vn-bank --date 2026-11-27 --reason "day reconciled"',
    ],
  },
};
