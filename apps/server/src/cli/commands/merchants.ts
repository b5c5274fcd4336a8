import { groupDecimal } from '@paydesk/shared';
import {
  CreateMerchantBodySchema,
  CreateUserBodySchema,
  ListMerchantsQuerySchema,
} from '../../modules/ops/index.ts';
import { type CommandSpec, MERCHANT, type MerchantView, MODE, REASON, table } from './command-spec.ts';

// Merchants and their console users: merchant:list|create, user:create.

export const MERCHANT_COMMANDS: Record<string, CommandSpec> = {
  'merchant:list': {
    summary: "List merchants with their balances (live mode's, or test mode's with --mode test).",
    options: { mode: MODE },
    changes: false,
    schema: ListMerchantsQuerySchema,
    request: (query) => ({ method: 'GET', path: `/ops/v1/merchants?mode=${String(query.mode)}` }),
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
    examples: ['npm run ops -- merchant:list', 'npm run ops -- merchant:list --mode test --json'],
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
};
