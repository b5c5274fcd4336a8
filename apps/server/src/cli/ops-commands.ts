import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { OPERATOR_HEADER } from '../modules/ops/index.ts';
import { CHANNEL_COMMANDS } from './commands/channels.ts';
import { type CommandSpec, type Data, EXIT, type OptionSpec, type Values } from './commands/command-spec.ts';
import { FUNDS_COMMANDS } from './commands/funds.ts';
import { LEDGER_COMMANDS } from './commands/ledger.ts';
import { MERCHANT_COMMANDS } from './commands/merchants.ts';
import { ORDER_COMMANDS } from './commands/orders.ts';
import { PAYOUT_BATCH_COMMANDS } from './commands/payout-batches.ts';
import { RECONCILIATION_COMMANDS } from './commands/reconciliation.ts';
import { REFUND_COMMANDS } from './commands/refunds.ts';
import { TOKEN_COMMANDS } from './commands/tokens.ts';
import { TOP_UP_COMMANDS } from './commands/top-ups.ts';
import { WITHDRAWAL_COMMANDS } from './commands/withdrawals.ts';
import type { OpsTransport } from './transport.ts';

// `npm run ops -- <command> [options]`: the operator API's command line (DESIGN section 10). Each area's
// commands are in commands/; this file parses a command line and runs one of them.

const GLOBAL_OPTIONS: Record<string, OptionSpec> = {
  operator: {
    value: '<name>',
    help: 'your name, recorded with every change (default: $PAYDESK_OPERATOR or your login)',
  },
  json: { help: 'print the answer as JSON' },
  help: { help: 'show this help' },
};

/** Every command, in the order the general help lists them. */
export const COMMANDS: Record<string, CommandSpec> = {
  ...MERCHANT_COMMANDS,
  ...FUNDS_COMMANDS,
  ...CHANNEL_COMMANDS,
  ...ORDER_COMMANDS,
  ...LEDGER_COMMANDS,
  ...TOKEN_COMMANDS,
  ...WITHDRAWAL_COMMANDS,
  ...TOP_UP_COMMANDS,
  ...RECONCILIATION_COMMANDS,
  ...PAYOUT_BATCH_COMMANDS,
  ...REFUND_COMMANDS,
};

export function commandUsage(name: string): string {
  const spec = COMMANDS[name];
  const all = { ...spec.options, ...GLOBAL_OPTIONS };
  const synopsis = Object.entries(spec.options)
    .map(([key, o]) => {
      const text = `--${key}${o.value ? ` ${o.value}` : ''}`;
      return o.required ? text : `[${text}]`;
    })
    .join(' ');
  const width =
    Math.max(...Object.entries(all).map(([k, o]) => k.length + (o.value ? o.value.length + 1 : 0))) + 4;
  return [
    `Usage: npm run ops -- ${name} ${synopsis} [--operator <name>] [--json]`.replace(
      /\s+\[--operator/,
      ' [--operator',
    ),
    '',
    spec.summary,
    '',
    'Options:',
    ...Object.entries(all).map(
      ([key, o]) =>
        `  ${`--${key}${o.value ? ` ${o.value}` : ''}`.padEnd(width)}${o.help}${o.required ? ' (required)' : ''}`,
    ),
    '',
    'Examples:',
    ...spec.examples.map((e) => `  ${e}`),
  ].join('\n');
}

export function generalUsage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((c) => c.length)) + 2;
  return [
    'Usage: npm run ops -- <command> [options]',
    '',
    'Commands:',
    ...Object.entries(COMMANDS).map(([name, spec]) => `  ${name.padEnd(width)}${spec.summary}`),
    '',
    'Each command takes --help. Changes need --reason and record your name (--operator), the time and the reason.',
    'The command calls the server running on this DATA_DIR, or, when none runs, the same API in this process.',
  ].join('\n');
}

export type OpsIo = { out: (text: string) => void; err: (text: string) => void };
export type RunOptions = {
  io: OpsIo;
  /** Opened only once the arguments are valid: a bad argument touches nothing. */
  connect: () => Promise<OpsTransport>;
  defaultOperator: string;
};

/** Runs one command line; answers the exit code. */
export async function runOps(argv: string[], { io, connect, defaultOperator }: RunOptions): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.out(generalUsage());
    return name ? EXIT.ok : EXIT.usage;
  }
  const spec = COMMANDS[name];
  if (!spec) {
    io.err(`Unknown command: ${name}\n\n${generalUsage()}`);
    return EXIT.usage;
  }
  const usageError = (messages: string[]) => {
    io.err(`${messages.map((m) => `Error: ${m}`).join('\n')}\n\n${commandUsage(name)}`);
    return EXIT.usage;
  };

  let values: Values;
  try {
    const options = Object.fromEntries(
      Object.entries({ ...spec.options, ...GLOBAL_OPTIONS }).map(([key, o]) => [
        key,
        {
          type: o.value ? ('string' as const) : ('boolean' as const),
          ...(key === 'help' ? { short: 'h' } : {}),
        },
      ]),
    );
    values = parseArgs({ args: rest, options, strict: true, allowPositionals: false }).values as Values;
  } catch (error) {
    return usageError([(error as Error).message.split('\n')[0]]);
  }
  if (values.help) {
    io.out(commandUsage(name));
    return EXIT.ok;
  }
  const missing = Object.entries(spec.options)
    .filter(([key, o]) => o.required && (values[key] === undefined || values[key] === ''))
    .map(([key]) => `--${key} is required.`);
  if (missing.length) return usageError(missing);

  // --fee-rate is the API's fee_rate.
  const input = Object.fromEntries(
    Object.keys(spec.options)
      .filter((key) => values[key] !== undefined)
      .map((key) => [key.replaceAll('-', '_'), values[key]]),
  );
  const parsed = spec.schema.safeParse(input);
  if (!parsed.success) {
    return usageError(
      parsed.error.issues.map((i) =>
        i.path.length ? `--${i.path.join('.').replaceAll('_', '-')}: ${i.message}` : i.message,
      ),
    );
  }
  const operator = String(values.operator ?? defaultOperator).trim();

  let transport: OpsTransport;
  try {
    transport = await connect();
  } catch (error) {
    io.err(`Error: ${(error as Error).message}`);
    return EXIT.failed;
  }
  try {
    if (spec.run) {
      return await spec.run({
        input: parsed.data as Data,
        io,
        json: Boolean(values.json),
        sendRaw: (request) =>
          transport.request({
            ...request,
            raw: true,
            headers: { [OPERATOR_HEADER]: operator, ...request.headers },
          }),
        send: async (request) => {
          const response = await transport.request({
            ...request,
            headers: { [OPERATOR_HEADER]: operator, ...request.headers },
          });
          const body = (response.body ?? {}) as { data?: Data; message?: string };
          return { status: response.status, data: body.data, message: body.message };
        },
      });
    }
    const request = spec.request(parsed.data as Data);
    const response = await transport.request({
      ...request,
      headers: {
        [OPERATOR_HEADER]: operator,
        ...(spec.changes ? { 'idempotency-key': `cli-${randomUUID()}` } : {}),
        ...request.headers,
      },
    });
    const body = (response.body ?? {}) as {
      data?: Data;
      message?: string;
      code?: string;
      errors?: Record<string, string[]>;
    };
    if (response.status >= 200 && response.status < 300 && body.data !== undefined) {
      io.out(values.json ? JSON.stringify(body.data, null, 2) : spec.print(body.data, values).join('\n'));
      return spec.exitCode?.(body.data) ?? EXIT.ok;
    }
    if (values.json) io.err(JSON.stringify({ status: response.status, ...body }, null, 2));
    if (response.status === 422 && body.code !== 'insufficient_funds') {
      const fieldErrors = Object.entries(body.errors ?? {}).flatMap(([field, messages]) =>
        messages.map((m) => `--${field.replaceAll('_', '-')}: ${m}`),
      );
      return usageError(fieldErrors.length ? fieldErrors : [body.message ?? 'Invalid input data']);
    }
    if (!values.json) io.err(`Error (${response.status}): ${body.message ?? String(response.body)}`);
    return EXIT.failed;
  } catch (error) {
    io.err(`Error: ${(error as Error).message}`);
    return EXIT.failed;
  } finally {
    await transport.close();
  }
}
