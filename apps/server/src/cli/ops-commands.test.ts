import { describe, expect, it } from 'vitest';
import { COMMANDS, commandUsage, generalUsage } from './ops-commands.ts';

// The command table is assembled from one file per area (commands/): the general help lists every
// command the ops command had before the split, each with its summary, and each answers --help.
const EVERY_COMMAND = [
  'merchant:list',
  'merchant:create',
  'user:create',
  'funds:transfer-in',
  'funds:transfer-out',
  'funds:freeze',
  'funds:unfreeze',
  'channel:open',
  'channel:close',
  'channel:list',
  'settlement:run',
  'sandbox:complete',
  'demo:traffic',
  'ledger:verify',
  'ledger:trial-balance',
  'operator:token-create',
  'operator:token-list',
  'operator:token-revoke',
  'withdrawal:list',
  'withdrawal:approve',
  'withdrawal:pay',
  'withdrawal:reject',
  'topup:list',
  'topup:show',
  'topup:approve',
  'topup:reject',
  'statement:import',
  'reconcile:show',
  'reconcile:resolve',
  'reconcile:close',
  'payout:batch-export',
  'payout:batch-import',
  'payout:mark-paid',
  'payout:mark-failed',
  'refund:list',
  'refund:complete',
];

describe('the ops command table', () => {
  it('lists every command in the general help, grouped by area', () => {
    const listed = generalUsage()
      .split('\n')
      .filter((line) => /^ {2}[a-z-]+:[a-z-]+ /.test(line))
      .map((line) => line.trim().split(/\s+/)[0]);
    expect(listed).toEqual(EVERY_COMMAND);
    expect(Object.keys(COMMANDS)).toEqual(EVERY_COMMAND);
  });

  it.each(EVERY_COMMAND)('%s has its usage, with an example of itself', (name) => {
    const usage = commandUsage(name);
    expect(usage).toMatch(new RegExp(`^Usage: npm run ops -- ${name} `));
    expect(usage).toContain(COMMANDS[name].summary);
    expect(usage).toContain(`  npm run ops -- ${name}`);
    if (COMMANDS[name].changes) expect(usage).toContain('--reason <text>');
  });
});
