import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import {
  BatchExportBodySchema,
  BatchImportBodySchema,
  MarkFailedBodySchema,
  MarkPaidBodySchema,
} from '../../modules/payout-batches/index.ts';
import { type CommandSpec, MERCHANT, MODE, REASON } from './command-spec.ts';

// Payouts paid by the platform's staff through their bank (DESIGN 13): payout:batch-export,
// payout:batch-import, payout:mark-paid, payout:mark-failed.

const typedPath = (file: string) => path.resolve(process.env.INIT_CWD ?? process.cwd(), file);
const CHANNEL = { value: '<code>', required: true, help: 'the manual payout channel, e.g. vn-manual' };
const TRADE_NO = { value: '<P...>', required: true, help: 'the payout number' };

const ExportOptionsSchema = BatchExportBodySchema.extend({ out: z.string().optional() });
const ImportOptionsSchema = BatchImportBodySchema.omit({ content: true, file_name: true }).extend({
  file: z
    .string({ error: 'The file field is required.' })
    .refine((file) => existsSync(typedPath(file)), 'No such file.'),
});

export const PAYOUT_BATCH_COMMANDS: Record<string, CommandSpec> = {
  'payout:batch-export': {
    summary:
      "Write the bank's file of a manual channel's pending payouts (they move to processing), or of an earlier batch.",
    options: {
      merchant: MERCHANT,
      mode: MODE,
      channel: CHANNEL,
      batch: { value: '<B...>', help: 'the file of this earlier batch again (nothing moves)' },
      out: { value: '<file>', help: 'where to write it (default: <batch>.csv here)' },
      reason: REASON,
    },
    changes: true,
    schema: ExportOptionsSchema,
    request: ({ out: _out, ...body }) => ({ method: 'POST', path: '/ops/v1/payouts/batch-export', body }),
    print: (data, values) => {
      const file = typedPath(typeof values.out === 'string' ? values.out : `${String(data.batch_no)}.csv`);
      writeFileSync(file, String(data.csv));
      return [
        `Batch ${String(data.batch_no)}: ${String(data.count)} payout(s), ${String(data.total)} in all, written to ${file}.`,
      ];
    },
    examples: [
      'npm run ops -- payout:batch-export --merchant M100004 --channel vn-manual --out batch.csv --reason "morning batch"',
    ],
  },
  'payout:batch-import': {
    summary: "Read the bank's result file: each payout paid (its reference) or failed (its hold released).",
    options: {
      merchant: MERCHANT,
      mode: MODE,
      channel: CHANNEL,
      file: { value: '<path>', required: true, help: "the bank's result file (CSV)" },
      reason: REASON,
    },
    changes: true,
    schema: ImportOptionsSchema,
    request: ({ file, ...rest }) => ({
      method: 'POST',
      path: '/ops/v1/payouts/batch-import',
      body: {
        ...rest,
        file_name: path.basename(String(file)),
        content: readFileSync(typedPath(String(file))).toString('base64'),
      },
    }),
    print: (data) => [
      `${String(data.lines)} line(s): ${String(data.paid)} paid, ${String(data.failed)} failed, ${String(data.already)} ended before.`,
    ],
    examples: [
      'npm run ops -- payout:batch-import --merchant M100004 --channel vn-manual --file result.csv --reason "bank result file"',
    ],
  },
  'payout:mark-paid': {
    summary: 'Mark one payout of a manual channel paid, with the bank reference.',
    options: {
      merchant: MERCHANT,
      mode: MODE,
      channel: CHANNEL,
      'trade-no': TRADE_NO,
      'bank-reference': { value: '<ref>', required: true, help: "the bank's reference of the transfer" },
      reason: REASON,
    },
    changes: true,
    schema: MarkPaidBodySchema,
    request: (body) => ({ method: 'POST', path: '/ops/v1/payouts/mark-paid', body }),
    print: (data) => [`${String(data.trade_no)}: success${data.changed ? '' : ' (it was already)'}.`],
    examples: [
      'npm run ops -- payout:mark-paid --merchant M100004 --channel vn-manual --trade-no P20261127093000123456789 --bank-reference FT2611270001 --reason "paid by hand"',
    ],
  },
  'payout:mark-failed': {
    summary: 'Mark one payout of a manual channel failed; its hold goes back to the merchant.',
    options: {
      merchant: MERCHANT,
      mode: MODE,
      channel: CHANNEL,
      'trade-no': TRADE_NO,
      failure: { value: '<text>', required: true, help: 'why, as the merchant reads it' },
      reason: REASON,
    },
    changes: true,
    schema: MarkFailedBodySchema,
    request: (body) => ({ method: 'POST', path: '/ops/v1/payouts/mark-failed', body }),
    print: (data) => [`${String(data.trade_no)}: failed${data.changed ? '' : ' (it was already)'}.`],
    examples: [
      'npm run ops -- payout:mark-failed --merchant M100004 --channel vn-manual --trade-no P20261127093000123456789 --failure "The account is closed." --reason "bank returned it"',
    ],
  },
};
