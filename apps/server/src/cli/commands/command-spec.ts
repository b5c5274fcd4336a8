import { groupDecimal } from '@paydesk/shared';
import type { z } from 'zod';
import type { OpsRequest, OpsResponse } from '../transport.ts';

// What every ops command is made of (ops-commands.ts assembles the table from the area files beside this).

export type OptionSpec = {
  /** The value's placeholder, e.g. "<no>"; absent for a flag. */
  value?: string;
  required?: boolean;
  help: string;
};

export type Values = Record<string, string | boolean | undefined>;

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
export type Data = Record<string, unknown>;

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

export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

export const MERCHANT: OptionSpec = { value: '<no>', required: true, help: 'merchant number, e.g. M100001' };
/** --mode of an object that has one (DESIGN 12): the merchant's live row or its test twin. */
export const MODE: OptionSpec = { value: 'live|test', help: 'the mode (default live)' };
export const AMOUNT: OptionSpec = {
  value: '<amount>',
  required: true,
  help: "decimal amount in the merchant's currency, e.g. 100.00",
};
export const REASON: OptionSpec = {
  value: '<text>',
  required: true,
  help: 'why (recorded with your name and the time)',
};

export type Money = { total: string; available: string; locked: string; currency: string };
export type MerchantView = {
  no: string;
  mode?: string;
  name: string;
  currency: string;
  status: string;
  balance?: Money;
};

export const money = (amount: string, currency: string) => `${groupDecimal(amount)} ${currency}`;
export const balanceLine = (b: Money) =>
  `Balance: available ${money(b.available, b.currency)}, locked ${money(b.locked, b.currency)}, total ${money(b.total, b.currency)}.`;

/** Rows under a header, each column as wide as its widest cell. */
export function table(header: string[], rows: string[][]): string[] {
  if (rows.length === 0) return ['(none)'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)];
}
