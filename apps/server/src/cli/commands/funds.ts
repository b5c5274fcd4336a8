import { MoveFundsBodySchema, UnfreezeBodySchema } from '../../modules/ops/index.ts';
import {
  AMOUNT,
  balanceLine,
  type CommandSpec,
  type Data,
  MERCHANT,
  type MerchantView,
  MODE,
  type Money,
  money,
  type OptionSpec,
  REASON,
} from './command-spec.ts';

// A merchant's money moved by hand (each a fund flow entry): funds:transfer-in|transfer-out|freeze|unfreeze.

const NOTE: OptionSpec = { value: '<text>', help: 'note shown to the merchant on the fund flow entry' };

type Entry = { id: number; type: string; amount: string; available_after: string; ref_no: string | null };

function fundsResult(verb: string) {
  return (data: Data) => {
    const merchant = data.merchant as MerchantView;
    const entry = data.entry as Entry;
    const amount = entry.amount.replace(/^-/, '');
    return [
      `${verb} ${money(amount, merchant.currency)} ${verb === 'Transferred' ? (entry.amount.startsWith('-') ? 'out of' : 'in to') : 'of'} ${merchant.no} (${merchant.name})${merchant.mode === 'test' ? ', test mode' : ''}.`,
      `Fund flow entry #${entry.id} (${entry.type}), reference ${entry.ref_no}; operator action #${String(data.action_id)}.`,
      balanceLine(data.balance as Money),
    ];
  };
}

export const FUNDS_COMMANDS: Record<string, CommandSpec> = {
  'funds:transfer-in': {
    summary: "Move money into a merchant's available balance (fund flow: funds transfer in).",
    options: { merchant: MERCHANT, mode: MODE, amount: AMOUNT, reason: REASON, note: NOTE },
    changes: true,
    schema: MoveFundsBodySchema,
    request: (body) => ({ method: 'POST', path: '/ops/v1/funds/transfer-in', body }),
    print: fundsResult('Transferred'),
    examples: [
      'npm run ops -- funds:transfer-in --merchant M100001 --amount 1000.00 --reason "wire 2026-03-01"',
    ],
  },
  'funds:transfer-out': {
    summary: "Move money out of a merchant's available balance (fund flow: funds transfer out).",
    options: { merchant: MERCHANT, mode: MODE, amount: AMOUNT, reason: REASON, note: NOTE },
    changes: true,
    schema: MoveFundsBodySchema,
    request: (body) => ({ method: 'POST', path: '/ops/v1/funds/transfer-out', body }),
    print: fundsResult('Transferred'),
    examples: [
      'npm run ops -- funds:transfer-out --merchant M100001 --amount 250.00 --reason "fee correction"',
    ],
  },
  'funds:freeze': {
    summary: 'Freeze part of the available balance (it moves to locked until unfrozen).',
    options: { merchant: MERCHANT, mode: MODE, amount: AMOUNT, reason: REASON, note: NOTE },
    changes: true,
    schema: MoveFundsBodySchema,
    request: (body) => ({ method: 'POST', path: '/ops/v1/funds/freeze', body }),
    print: (data) => [
      ...fundsResult('Froze')(data),
      `Freeze #${String(data.freeze_id)}: lift it with funds:unfreeze --merchant ${(data.merchant as MerchantView).no} --freeze ${String(data.freeze_id)}.`,
    ],
    examples: [
      'npm run ops -- funds:freeze --merchant M100001 --amount 500.00 --reason "chargeback dispute #88"',
    ],
  },
  'funds:unfreeze': {
    summary: 'Lift a freeze: the frozen amount goes back to available.',
    options: {
      merchant: MERCHANT,
      mode: MODE,
      freeze: { value: '<id>', required: true, help: 'the freeze number funds:freeze printed' },
      reason: REASON,
      note: NOTE,
    },
    changes: true,
    schema: UnfreezeBodySchema,
    request: (body) => ({ method: 'POST', path: '/ops/v1/funds/unfreeze', body }),
    print: fundsResult('Unfroze'),
    examples: ['npm run ops -- funds:unfreeze --merchant M100001 --freeze 3 --reason "dispute closed"'],
  },
};
