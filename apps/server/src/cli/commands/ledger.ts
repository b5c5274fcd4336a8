import { TrialBalanceQuerySchema, VerifyQuerySchema } from '../../modules/ops/index.ts';
import { type CommandSpec, MODE, money, table } from './command-spec.ts';

// The books: ledger:verify (every invariant) and ledger:trial-balance.

/** Without --mode the books of both modes; each mode's are apart (DESIGN 12). */
const EITHER_MODE = { ...MODE, help: 'only this mode (default: each mode)' };

/** The query string of the options given ("" when none). */
const queryOf = (query: Record<string, unknown>) => {
  const params = new URLSearchParams(
    Object.entries(query)
      .filter(([, value]) => value !== undefined)
      .map(([key, value]) => [key, String(value)] as [string, string]),
  );
  return params.size ? `?${params}` : '';
};

type TrialBalanceView = {
  balanced: boolean;
  currencies: {
    mode: string;
    currency: string;
    accounts: { code: string; balance: string }[];
    merchants: { available: string; locked: string; count: number };
    total: string;
  }[];
};

export const LEDGER_COMMANDS: Record<string, CommandSpec> = {
  'ledger:verify': {
    summary: 'Check every ledger invariant, for one merchant or all; exits 1 and lists each broken one.',
    options: {
      merchant: { value: '<no>', help: 'only this merchant (default: all)' },
      mode: EITHER_MODE,
    },
    changes: false,
    schema: VerifyQuerySchema,
    request: (query) => ({ method: 'GET', path: `/ops/v1/ledger/verify${queryOf(query)}` }),
    print: (data) => {
      const report = data as {
        ok: boolean;
        modes: { mode: string; merchants_checked: number; entries_checked: number }[];
        problems: { merchant_no: string; mode: string; invariant: string; message: string }[];
        truncated: boolean;
      };
      const checked = `${report.modes
        .map((m) => `${m.mode}: ${m.merchants_checked} merchant(s), ${m.entries_checked} entries`)
        .join('; ')} checked`;
      if (report.ok) return [`Ledger OK: ${checked}.`];
      return [
        `Ledger BROKEN: ${report.problems.length}${report.truncated ? '+' : ''} problem(s), ${checked}.`,
        ...report.problems.map((p) => `  ${p.merchant_no} (${p.mode})  ${p.invariant}: ${p.message}`),
        ...(report.truncated ? ['  (more not listed)'] : []),
      ];
    },
    exitCode: (data) => (data.ok ? 0 : 1),
    examples: [
      'npm run ops -- ledger:verify',
      'npm run ops -- ledger:verify --merchant M100001 --mode test --json',
    ],
  },
  'ledger:trial-balance': {
    summary:
      "Print every platform account and all merchants' balances per currency, and their total (zero when the books balance).",
    options: { mode: EITHER_MODE },
    changes: false,
    schema: TrialBalanceQuerySchema,
    request: (query) => ({ method: 'GET', path: `/ops/v1/ledger/trial-balance${queryOf(query)}` }),
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
        lines.push(`${c.mode} ${c.currency}:`);
        lines.push(
          ...table(
            ['account', 'balance'.padStart(width)],
            rows.map(([account, amount]) => [account, amount.padStart(width)]),
          ).map((line) => `  ${line}`),
        );
      }
      lines.push(report.balanced ? 'Balanced: every mode and currency sums to zero.' : 'NOT BALANCED.');
      return lines;
    },
    exitCode: (data) => (data.balanced ? 0 : 1),
    examples: [
      'npm run ops -- ledger:trial-balance',
      'npm run ops -- ledger:trial-balance --mode test --json',
    ],
  },
};
