import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { groupDecimal } from '@paydesk/shared';
import {
  ApproveTopUpBodySchema,
  type OpsTopUp,
  OpsTopUpListQuerySchema,
  RejectTopUpBodySchema,
} from '@paydesk/shared/top-ups/top-ups.schemas.ts';
import { type CommandSpec, REASON, table } from './command-spec.ts';

// The operator's review of top-ups (DESIGN 10): topup:list|show|approve|reject, clients of /ops/v1/topups.

const NO = { value: '<R...>', required: true, help: 'the top-up number (topup:list prints it)' };

const usdt = (amount: string | null) => (amount === null ? '-' : `${groupDecimal(amount)} USDT`);
const local = (amount: string | null, currency: string) =>
  amount === null ? '-' : `${groupDecimal(amount)} ${currency}`;

function describe(t: OpsTopUp): string[] {
  return [
    `Top-up ${t.recharge_no} of ${t.merchant}: ${t.status.replace('_', ' ')}`,
    `  Sent:       ${usdt(t.amount)} on ${t.network} to ${t.address}`,
    `  Submitted:  ${t.created_at}`,
    `  Screenshot: ${t.screenshot_type}, ${t.screenshot_bytes} bytes (--screenshot <file> writes it)`,
    ...(t.status === 'approved'
      ? [
          `  Received:   ${usdt(t.received_amount)} at ${t.rate} ${t.credited_currency}/USDT (USD rate ${t.usd_rate})`,
          `  Credited:   ${local(t.credited_amount, t.credited_currency)} (${local(t.credited_usd, 'USD')})`,
        ]
      : []),
    ...(t.reviewed_at
      ? [`  Decided:    ${t.reviewed_at} by ${t.reviewed_by ?? '?'}: ${t.reason ?? ''}`]
      : []),
  ];
}

const ShowOptionsSchema = z.object({
  no: ApproveTopUpBodySchema.shape.no,
  screenshot: z.string().min(1).optional(),
});

export const TOP_UP_COMMANDS: Record<string, CommandSpec> = {
  'topup:list': {
    summary: "List top-ups (newest first), every merchant's or one's, by status.",
    options: {
      merchant: { value: '<no>', help: 'only this merchant' },
      status: { value: 'pending_review|approved|rejected', help: 'only this status' },
      limit: { value: '<n>', help: 'at most this many (default 50)' },
    },
    changes: false,
    schema: OpsTopUpListQuerySchema,
    request: (query) => {
      const params = new URLSearchParams(
        Object.entries(query).map(([key, value]) => [key, String(value)] as [string, string]),
      );
      return { method: 'GET', path: `/ops/v1/topups?${params.toString()}` };
    },
    print: (data) => {
      const rows = (data as unknown as OpsTopUp[]).map((t) => [
        t.recharge_no,
        t.merchant,
        t.status,
        t.network,
        groupDecimal(t.amount),
        t.credited_amount === null ? '-' : local(t.credited_amount, t.credited_currency),
        t.created_at,
      ]);
      return table(['NO', 'MERCHANT', 'STATUS', 'NETWORK', 'USDT', 'CREDITED', 'SUBMITTED'], rows);
    },
    examples: [
      'npm run ops -- topup:list --status pending_review',
      'npm run ops -- topup:list --merchant M100001 --json',
    ],
  },
  'topup:show': {
    summary: 'Show one top-up; with --screenshot <file>, write its screenshot there to check it.',
    options: { no: NO, screenshot: { value: '<file>', help: 'write the screenshot to this file' } },
    changes: false,
    schema: ShowOptionsSchema,
    request: (input) => ({ method: 'GET', path: `/ops/v1/topups/${String(input.no)}` }),
    print: (data) => describe(data as unknown as OpsTopUp),
    run: async ({ input, send, sendRaw, io, json }) => {
      const request = TOP_UP_COMMANDS['topup:show'].request(input);
      const answer = await send(request);
      if (answer.status !== 200 || !answer.data) {
        io.err(`Error (${answer.status}): ${answer.message ?? 'no answer'}`);
        return 1;
      }
      io.out(json ? JSON.stringify(answer.data, null, 2) : describe(answer.data as OpsTopUp).join('\n'));
      if (typeof input.screenshot !== 'string') return 0;
      const image = await sendRaw({ ...request, path: `${request.path}/screenshot` });
      if (image.status !== 200 || !Buffer.isBuffer(image.body)) {
        io.err(`Error (${image.status}): the screenshot could not be read.`);
        return 1;
      }
      // Relative to where the command was typed (npm runs scripts from the package folder).
      const file = path.resolve(process.env.INIT_CWD ?? process.cwd(), input.screenshot);
      writeFileSync(file, image.body);
      if (!json) io.out(`Screenshot (${image.contentType}, ${image.body.length} bytes) written to ${file}`);
      return 0;
    },
    examples: [
      'npm run ops -- topup:show --no R20261123101500123456123456',
      'npm run ops -- topup:show --no R20261123101500123456123456 --screenshot /tmp/top-up.png',
    ],
  },
  'topup:approve': {
    summary:
      "Approve a top-up: credit received x rate (rounded down to the merchant currency's unit) to its available balance.",
    options: {
      no: NO,
      received: { value: '<usdt>', required: true, help: 'the USDT that arrived on chain, e.g. 100.5' },
      rate: {
        value: '<rate>',
        required: true,
        help: "one USDT in the merchant's currency, e.g. 7.1234",
      },
      'usd-rate': { value: '<rate>', help: 'one USDT in USD (default: the configured rate, 1.00)' },
      reason: REASON,
    },
    changes: true,
    schema: ApproveTopUpBodySchema,
    request: (body) => ({ method: 'POST', path: '/ops/v1/topups/approve', body }),
    print: (data) => {
      const t = data as unknown as OpsTopUp;
      return [
        `Approved ${t.recharge_no} of ${t.merchant}: credited ${local(t.credited_amount, t.credited_currency)} (${usdt(t.received_amount)} x ${t.rate}; ${local(t.credited_usd, 'USD')}).`,
      ];
    },
    examples: [
      'npm run ops -- topup:approve --no R20261123101500123456123456 --received 100.5 --rate 7.12 --reason "tx 0xabc seen on chain"',
    ],
  },
  'topup:reject': {
    summary: 'Reject a top-up with a reason the merchant sees in its top-up history.',
    options: { no: NO, reason: REASON },
    changes: true,
    schema: RejectTopUpBodySchema,
    request: (body) => ({ method: 'POST', path: '/ops/v1/topups/reject', body }),
    print: (data) => {
      const t = data as unknown as OpsTopUp;
      return [`Rejected ${t.recharge_no} of ${t.merchant}: ${t.reason ?? ''}`];
    },
    examples: [
      'npm run ops -- topup:reject --no R20261123101500123456123456 --reason "no such transfer on chain"',
    ],
  },
};
