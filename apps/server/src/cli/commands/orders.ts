import { groupDecimal } from '@paydesk/shared';
import {
  DemoTrafficOptionsSchema,
  RunSettlementBodySchema,
  SandboxCompleteBodySchema,
} from '../../modules/ops/index.ts';
import type { OpsRequest } from '../transport.ts';
import { type CommandSpec, EXIT, MERCHANT, REASON } from './command-spec.ts';

// Orders: settlement:run of paid collections, and the sandbox's sandbox:complete and demo:traffic.

export const ORDER_COMMANDS: Record<string, CommandSpec> = {
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
      mode: {
        value: 'live|test',
        help: 'the key it signs with (default test: the sandbox serves test mode)',
      },
      rate: { value: '<per second>', help: 'orders per second (default 2)' },
      duration: { value: '<seconds>', help: 'how long (default 60)' },
      channel: { value: '<code>', help: 'the collection channel (default sandbox-auto, the auto mode)' },
      routed: { help: "send no channel: the merchant's routing chooses (priority, weight, health)" },
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
      body: {
        merchant: input.merchant,
        mode: input.mode,
        channel: input.channel,
        routed: input.routed,
        reason: input.reason,
      },
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
              body: { merchant: input.merchant, mode: input.mode, reason: input.reason },
            }
          : ORDER_COMMANDS['demo:traffic'].request(input);
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
    examples: [
      'npm run ops -- demo:traffic --merchant M100001 --rate 5 --duration 60',
      'npm run ops -- demo:traffic --merchant M100001 --routed --rate 2 --duration 30 --payouts 0',
    ],
  },
};
