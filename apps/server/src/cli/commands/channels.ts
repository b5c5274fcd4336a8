import { DEFAULT_PROVIDER, PROVIDERS } from '@paydesk/shared/channels/providers.ts';
import {
  CloseChannelBodySchema,
  ListChannelsQuerySchema,
  OpenChannelBodySchema,
  RouteChannelBodySchema,
} from '../../modules/ops/index.ts';
import { type CommandSpec, MERCHANT, MODE, REASON, table } from './command-spec.ts';

// A merchant's channels: channel:open|close|route|list.

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
  provider: string;
  priority: number;
  weight: number;
  cooldown_until: string | null;
};

const channelLine = (c: ChannelView) =>
  `${c.merchant} ${c.kind} channel ${c.code} (${c.status}): fee ${c.fee_rate}% + ${c.fixed_fee} ${c.currency}, ` +
  `${c.min_amount} to ${c.max_amount}${c.settlement_cycle ? `, settles ${c.settlement_cycle}` : ''}, ` +
  `${c.provider}${c.provider === DEFAULT_PROVIDER ? ` ${c.sandbox_mode}` : ''}, ` +
  `priority ${c.priority} weight ${c.weight}${c.cooldown_until ? `, cooling down until ${c.cooldown_until}` : ''}.`;

export const CHANNEL_COMMANDS: Record<string, CommandSpec> = {
  'channel:open': {
    summary: "Open a channel for a merchant (or open it again with new terms); merchants' orders use it.",
    options: {
      merchant: MERCHANT,
      mode: { ...MODE, help: 'the mode (default live); the sandbox serves test mode only' },
      code: { value: '<code>', required: true, help: 'what merchants send as channel, e.g. sandbox' },
      kind: { value: 'collection|payout', required: true, help: 'what the channel does' },
      provider: {
        value: PROVIDERS.join('|'),
        help: 'the adapter that talks to the channel (default sandbox); see README "Connect a real channel"',
      },
      settings: { value: '<json>', help: "the provider's settings, e.g. the receiving account, as JSON" },
      secrets: { value: '<json>', help: "the provider's secrets as JSON (a notify_secret is made if none)" },
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
      priority: {
        value: '<n>',
        help: 'routing: higher first (default: kept when opened again, else below the others of its kind)',
      },
      weight: { value: '<n>', help: "routing: its share among its priority's channels (default 100)" },
      reason: REASON,
    },
    changes: true,
    schema: OpenChannelBodySchema,
    request: (body) => ({ method: 'POST', path: '/ops/v1/channels/open', body }),
    print: (data) => [
      `Opened: ${channelLine(data.channel as ChannelView)}`,
      ...Object.entries((data.generated_secrets as Record<string, string> | undefined) ?? {}).map(
        ([name, value]) => `Its ${name} (shown once; give it to the bank to sign notifications): ${value}`,
      ),
    ],
    examples: [
      'npm run ops -- channel:open --merchant M100001 --mode test --code sandbox --kind collection --fee-rate 1.5 --min-amount 1.00 --max-amount 50000.00 --cycle T1 --reason "onboarding"',
      `npm run ops -- channel:open --merchant M100004 --code vn-bank --kind collection --provider bank_transfer --settings '{"bank":"Vietcombank","account_name":"PAYDESK VN","account_no":"0071000888999","bank_bin":"970436"}' --fee-rate 1 --min-amount 10000 --max-amount 50000000 --reason "live bank account"`,
      'npm run ops -- channel:open --merchant M100004 --code vn-manual --kind payout --provider manual --fee-rate 0.5 --min-amount 10000 --max-amount 50000000 --reason "payouts by our bank"',
    ],
  },
  'channel:close': {
    summary: 'Close a channel: new orders can no longer use it (orders already made go on).',
    options: {
      merchant: MERCHANT,
      mode: MODE,
      code: { value: '<code>', required: true, help: 'the channel code' },
      kind: { value: 'collection|payout', required: true, help: 'the channel kind' },
      reason: REASON,
    },
    changes: true,
    schema: CloseChannelBodySchema,
    request: (body) => ({ method: 'POST', path: '/ops/v1/channels/close', body }),
    print: (data) => [`Closed: ${channelLine(data.channel as ChannelView)}`],
    examples: [
      'npm run ops -- channel:close --merchant M100001 --mode test --code sandbox --kind payout --reason "bank outage"',
    ],
  },
  'channel:route': {
    summary: "Set a channel's routing: orders go to the highest priority's channels, shared by weight.",
    options: {
      merchant: MERCHANT,
      mode: MODE,
      code: { value: '<code>', required: true, help: 'the channel code' },
      kind: { value: 'collection|payout', required: true, help: 'the channel kind' },
      priority: { value: '<n>', help: 'higher first; same priority: shared by weight' },
      weight: { value: '<n>', help: "a whole number of at least 1: its share among its priority's channels" },
      reason: REASON,
    },
    changes: true,
    schema: RouteChannelBodySchema,
    request: (body) => ({ method: 'POST', path: '/ops/v1/channels/route', body }),
    print: (data) => {
      const before = data.before as { priority: number; weight: number };
      return [
        `Routed: ${channelLine(data.channel as ChannelView)}`,
        `Before: priority ${before.priority} weight ${before.weight}.`,
      ];
    },
    examples: [
      'npm run ops -- channel:route --merchant M100001 --mode test --code sandbox-backup --kind collection --priority 10 --weight 30 --reason "share with the backup bank"',
    ],
  },
  'channel:list': {
    summary: "List channels, every merchant's or one's.",
    options: { merchant: { value: '<no>', help: 'only this merchant' }, mode: MODE },
    changes: false,
    schema: ListChannelsQuerySchema,
    request: (query) => {
      const params = new URLSearchParams({ mode: String(query.mode) });
      if (query.merchant) params.set('merchant', String(query.merchant));
      return { method: 'GET', path: `/ops/v1/channels?${params}` };
    },
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
        `${c.priority}/${c.weight}${c.cooldown_until ? ' cooling' : ''}`,
      ]);
      return table(
        ['MERCHANT', 'KIND', 'CODE', 'STATUS', 'CUR', 'FEE', 'LIMITS', 'CYCLE', 'SANDBOX', 'ROUTE'],
        rows,
      );
    },
    examples: [
      'npm run ops -- channel:list',
      'npm run ops -- channel:list --merchant M100001 --mode test --json',
    ],
  },
};
