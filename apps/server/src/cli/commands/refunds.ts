import { CompleteRefundBodySchema, OpsRefundListQuerySchema } from '../../modules/ops/index.ts';
import { type CommandSpec, type Data, money, REASON, table } from './command-spec.ts';

// Refunds paid back by hand (DESIGN 14): a bank transfer's payer gets the money back from the platform's
// staff; the refund waits in processing until an operator says how it ended.

type RefundView = {
  merchant: string | null;
  refund_no: string;
  out_refund_no: string;
  trade_no: string;
  status: string;
  amount: string;
  currency: string;
  channel: string;
  reason: string | null;
  failure_reason: string | null;
  created_at: string;
};

const refundLine = (r: RefundView) =>
  `${r.refund_no} of order ${r.trade_no}: ${money(r.amount, r.currency)} on ${r.channel}; ${r.status}` +
  `${r.failure_reason ? `, reason: ${r.failure_reason}` : ''}.`;

export const REFUND_COMMANDS: Record<string, CommandSpec> = {
  'refund:list': {
    summary: 'List refunds waiting to be paid back by hand (bank transfer channels), oldest first.',
    options: { limit: { value: '<n>', help: 'at most this many (default 50)' } },
    changes: false,
    schema: OpsRefundListQuerySchema,
    request: (query) => ({
      method: 'GET',
      path: `/ops/v1/refunds${query.limit === undefined ? '' : `?limit=${String(query.limit)}`}`,
    }),
    print: (data) =>
      table(
        ['NO', 'MERCHANT', 'ORDER', 'AMOUNT', 'CHANNEL', 'REASON', 'CREATED'],
        (data as unknown as RefundView[]).map((r) => [
          r.refund_no,
          r.merchant ?? '',
          r.trade_no,
          money(r.amount, r.currency),
          r.channel,
          r.reason ?? '',
          r.created_at,
        ]),
      ),
    examples: ['npm run ops -- refund:list', 'npm run ops -- refund:list --json'],
  },
  'refund:complete': {
    summary:
      'Finish a refund paid back by hand: succeeded (the money left) or failed (it returns to the merchant).',
    options: {
      'refund-no': { value: '<no>', required: true, help: 'the refund number (R...)' },
      result: { value: 'succeeded|failed', required: true, help: 'how it ended' },
      reason: REASON,
    },
    changes: true,
    schema: CompleteRefundBodySchema,
    request: (body) => ({ method: 'POST', path: '/ops/v1/refunds/complete', body }),
    print: (data: Data) => [refundLine(data.refund as RefundView)],
    examples: [
      'npm run ops -- refund:complete --refund-no R20261129101500123456 --result succeeded --reason "sent from our bank, ref 88123"',
      'npm run ops -- refund:complete --refund-no R20261129101500123456 --result failed --reason "the payer account is closed"',
    ],
  },
};
