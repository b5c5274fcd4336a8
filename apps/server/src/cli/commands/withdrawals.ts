import { groupDecimal } from '@paydesk/shared';
import {
  ListWithdrawalsQuerySchema,
  PayWithdrawalBodySchema,
  RejectWithdrawalBodySchema,
  WithdrawalDecisionBodySchema,
} from '../../modules/ops/index.ts';
import {
  balanceLine,
  type CommandSpec,
  type Data,
  type Money,
  money,
  type OptionSpec,
  REASON,
  table,
} from './command-spec.ts';

// Withdrawals (DESIGN sections 4 and 10): pending_review -> approved -> paid | rejected (from either).

type WithdrawalView = {
  merchant: string;
  withdrawal_no: string;
  status: string;
  network: string;
  address: string;
  amount: string;
  fee: string;
  local_currency: string;
  local_total: string;
  tx_hash: string | null;
  reject_reason: string | null;
  created_at: string;
};

const withdrawalLine = (w: WithdrawalView) =>
  `${w.withdrawal_no} of ${w.merchant}: ${groupDecimal(w.amount)} USDT (fee ${w.fee}) to ${w.address} on ${w.network}, ` +
  `held ${money(w.local_total, w.local_currency)}; ${w.status}` +
  `${w.tx_hash ? `, tx ${w.tx_hash}` : ''}${w.reject_reason ? `, reason: ${w.reject_reason}` : ''}.`;

const WITHDRAWAL_NO: OptionSpec = { value: '<no>', required: true, help: 'the withdrawal number (W...)' };

function withdrawalDecided(data: Data): string[] {
  return [withdrawalLine(data.withdrawal as WithdrawalView), balanceLine(data.balance as Money)];
}

export const WITHDRAWAL_COMMANDS: Record<string, CommandSpec> = {
  'withdrawal:list': {
    summary: "List withdrawals, newest first: every merchant's or one's, optionally of one status.",
    options: {
      merchant: { value: '<no>', help: 'only this merchant' },
      status: { value: 'pending_review|approved|paid|rejected', help: 'only this status' },
      limit: { value: '<n>', help: 'at most this many (default 50)' },
    },
    changes: false,
    schema: ListWithdrawalsQuerySchema,
    request: (query) => {
      const params = new URLSearchParams(
        Object.entries(query)
          .filter(([, v]) => v !== undefined)
          .map(([k, v]): [string, string] => [k, String(v)]),
      );
      return { method: 'GET', path: `/ops/v1/withdrawals?${params}` };
    },
    print: (data) =>
      table(
        ['NO', 'MERCHANT', 'STATUS', 'AMOUNT USDT', 'FEE', 'NETWORK', 'ADDRESS', 'HELD', 'CREATED'],
        (data as unknown as WithdrawalView[]).map((w) => [
          w.withdrawal_no,
          w.merchant,
          w.status,
          groupDecimal(w.amount),
          w.fee,
          w.network,
          w.address,
          money(w.local_total, w.local_currency),
          w.created_at,
        ]),
      ),
    examples: [
      'npm run ops -- withdrawal:list --status pending_review',
      'npm run ops -- withdrawal:list --merchant M100001 --json',
    ],
  },
  'withdrawal:approve': {
    summary: 'Approve a withdrawal under review (it stays held until paid or rejected).',
    options: { no: WITHDRAWAL_NO, reason: REASON },
    changes: true,
    schema: WithdrawalDecisionBodySchema,
    request: (body) => ({ method: 'POST', path: '/ops/v1/withdrawals/approve', body }),
    print: withdrawalDecided,
    examples: ['npm run ops -- withdrawal:approve --no W20261123101500123456 --reason "address verified"'],
  },
  'withdrawal:pay': {
    summary: 'Record an approved withdrawal as paid on chain, with its transaction hash.',
    options: {
      no: WITHDRAWAL_NO,
      'tx-hash': {
        value: '<hash>',
        required: true,
        help: 'the transaction hash (TRC20: 64 hex digits; ERC20: 0x + 64 hex digits)',
      },
      reason: REASON,
    },
    changes: true,
    schema: PayWithdrawalBodySchema,
    request: (body) => ({ method: 'POST', path: '/ops/v1/withdrawals/pay', body }),
    print: withdrawalDecided,
    examples: [
      'npm run ops -- withdrawal:pay --no W20261123101500123456 --tx-hash 3f5a9c0e7b2d4a6c8e1f3b5d7a9c0e2f4b6d8a1c3e5f7b9d0a2c4e6f8b1d3a5c --reason "sent from hot wallet"',
    ],
  },
  'withdrawal:reject': {
    summary:
      'Reject a withdrawal under review or approved: amount + fee go back to available; the reason is shown to the merchant.',
    options: {
      no: WITHDRAWAL_NO,
      from: {
        value: 'pending_review|approved',
        help: 'the state you reject (default pending_review; an approved one only when you say approved)',
      },
      reason: REASON,
    },
    changes: true,
    schema: RejectWithdrawalBodySchema,
    request: (body) => ({ method: 'POST', path: '/ops/v1/withdrawals/reject', body }),
    print: withdrawalDecided,
    examples: [
      'npm run ops -- withdrawal:reject --no W20261123101500123456 --reason "the wallet address is on a sanctions list"',
      'npm run ops -- withdrawal:reject --no W20261123101500123456 --from approved --reason "chain congested, merchant asked to cancel"',
    ],
  },
};
