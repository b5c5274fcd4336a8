import { z } from 'zod';
import { CURRENCIES, type Currency } from '@paydesk/shared';
import { COUNTRIES } from '@paydesk/shared/collections/collections.schemas.ts';
import type { ChannelRow } from '../../channels.repository.ts';
import { BATCH_FIELDS, type BatchLayout, type ChannelAdapter, isChannelFaultByDefault } from '../adapter.ts';
import { ourPayoutReport } from '../outcomes.ts';

// The manual provider (DESIGN 13): payouts the platform's staff pay through their bank's own means. A
// payout waits in the operator's queue (pending); payout:batch-export writes the bank's file in the
// channel's column layout and moves the payouts it lists to processing; payout:batch-import reads the
// bank's result file, or an operator marks one payout paid (with the bank's reference) or failed (with a
// reason, which releases its hold). Nothing runs by itself, so it serves live and test mode alike.

const header = z.string().trim().min(1).max(40);

const DEFAULT_LAYOUT: BatchLayout = {
  columns: [
    { header: 'Reference', field: 'trade_no' },
    { header: 'Amount', field: 'amount' },
    { header: 'Currency', field: 'currency' },
    { header: 'Beneficiary name', field: 'account_name' },
    { header: 'Account number', field: 'account_no' },
    { header: 'Bank code', field: 'bank_code' },
    { header: 'Bank name', field: 'bank_name' },
    { header: 'Branch', field: 'branch' },
  ],
  result: {
    tradeNo: 'Reference',
    status: 'Status',
    bankReference: 'Bank reference',
    reason: 'Reason',
    paidValues: ['PAID', 'SUCCESS', 'COMPLETED'],
    failedValues: ['FAILED', 'REJECTED', 'RETURNED'],
  },
};

const SettingsSchema = z
  .object({
    /** The file's columns, in order: [{header, field}]. */
    columns: z
      .array(z.object({ header, field: z.enum(BATCH_FIELDS) }).strict())
      .min(1)
      .max(BATCH_FIELDS.length)
      .refine((columns) => columns.some((c) => c.field === 'trade_no'), {
        message: 'The columns must include trade_no: the result file is matched by it.',
      })
      .optional(),
    result: z
      .object({
        trade_no: header,
        status: header,
        bank_reference: header,
        reason: header,
        paid_values: z.array(header).min(1),
        failed_values: z.array(header).min(1),
      })
      .strict()
      .optional(),
  })
  .strict();
type Settings = z.infer<typeof SettingsSchema>;

/** A channel's batch layout: its own columns and result file, or the default. */
export function layoutOf(channel: ChannelRow): BatchLayout {
  const settings = channel.settings as Settings;
  const result = settings.result;
  return {
    columns: settings.columns ?? DEFAULT_LAYOUT.columns,
    result: result
      ? {
          tradeNo: result.trade_no,
          status: result.status,
          bankReference: result.bank_reference,
          reason: result.reason,
          paidValues: result.paid_values.map((v) => v.toUpperCase()),
          failedValues: result.failed_values.map((v) => v.toUpperCase()),
        }
      : DEFAULT_LAYOUT.result,
  };
}

export const manualAdapter: ChannelAdapter = {
  provider: 'manual',
  capabilities: {
    kinds: ['payout'],
    modes: ['live', 'test'],
    countries: COUNTRIES,
    currencies: Object.keys(CURRENCIES).filter((c) => c !== 'USDT' && c !== 'USD') as Currency[],
  },
  settingsSchema: () => SettingsSchema,
  secrets: [],
  notifies: false,
  acceptsOrders: () => true,
  settles: () => true,
  collectionFollowsUp: () => false,
  createCollection: () => {
    throw new Error('A manual channel pays payouts only.');
  },
  queryCollection: async () => undefined,
  // It waits in the operator's queue: no job, nothing sent.
  submitPayout: () => ({}),
  // Staff pay it; our order is what it knows.
  queryPayout: (_channel, tradeNo, ports) => ourPayoutReport(tradeNo, ports),
  refundsByOperator: false,
  // It pays out only: it has no collections to refund.
  submitRefund: () => ({ supported: false }),
  parseNotification: () => ({ verified: false, reason: 'A manual channel sends no notifications.' }),
  // Until an operator exports it, nobody has it; after, the bank may have it: never sent elsewhere.
  isSafeToRetryElsewhere: (failure) => failure.stage === 'connect',
  isChannelFault: isChannelFaultByDefault,
  batchLayout: layoutOf,
  queues: [],
  runJob: async () => {},
};
