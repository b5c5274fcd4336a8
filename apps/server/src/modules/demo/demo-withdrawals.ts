import { type Currency, toMinor } from '@paydesk/shared';
import { usdtToLocalMinor } from '@paydesk/shared/withdrawals/withdrawal-amount.ts';
import { DEFAULT_USDT_RATES } from '../../config.ts';
import type { Tx } from '../../db/client.ts';
import { newTradeNo } from '../collections/index.ts';
import { createLedger } from '../ledger/index.ts';
import { holdWithdrawal, seedWithdrawalRow } from '../withdrawals/index.ts';

type Plan = {
  status: 'pending_review' | 'approved' | 'paid' | 'rejected';
  amount: string;
  network: 'TRC20' | 'ERC20';
  address: string;
  daysAgo: number;
  isFree?: boolean;
  txHash?: string;
  reason?: string;
};

// One withdrawal in every state, on both networks; the older ones days back, so today's free one is left.
const PLAN: Plan[] = [
  {
    status: 'paid',
    amount: '500',
    network: 'TRC20',
    address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
    daysAgo: 4,
    isFree: true,
    txHash: '7c2d1f0e9a8b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f2a1b0c9d',
  },
  {
    status: 'rejected',
    amount: '120.5',
    network: 'ERC20',
    address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    daysAgo: 3,
    reason: 'The receiving wallet could not be verified; please use a wallet in your own name.',
  },
  {
    status: 'approved',
    amount: '80',
    network: 'ERC20',
    address: '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
    daysAgo: 1,
  },
  {
    status: 'pending_review',
    amount: '50',
    network: 'TRC20',
    address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
    daysAgo: 0,
  },
];

/** The demo merchant's withdrawals, held, paid and released through the ledger like real ones. */
export async function seedDemoWithdrawals(
  tx: Tx,
  merchant: { id: number; currency: Currency },
  now: Date,
  feeUsdt = '1',
) {
  const ledger = createLedger();
  const rate = DEFAULT_USDT_RATES[merchant.currency] ?? '1';
  for (const [index, step] of PLAN.entries()) {
    const createdAt = new Date(now.getTime() - step.daysAgo * 86_400_000 - (PLAN.length - index) * 3_600_000);
    const amountUsdtMinor = toMinor(step.amount, 'USDT');
    const feeUsdtMinor = step.isFree ? 0n : toMinor(feeUsdt, 'USDT');
    const amountLocalMinor = usdtToLocalMinor(amountUsdtMinor, rate, merchant.currency);
    const feeLocalMinor = feeUsdtMinor === 0n ? 0n : usdtToLocalMinor(feeUsdtMinor, rate, merchant.currency);
    const decided = new Date(createdAt.getTime() + 2 * 3_600_000);
    const row = await seedWithdrawalRow(tx, {
      merchantId: merchant.id,
      withdrawalNo: newTradeNo('W', createdAt),
      status: step.status,
      network: step.network,
      address: step.address,
      amountUsdtMinor,
      feeUsdtMinor,
      isFree: step.isFree ?? false,
      rate,
      localCurrency: merchant.currency,
      amountLocalMinor,
      feeLocalMinor,
      txHash: step.txHash ?? null,
      rejectReason: step.reason ?? null,
      approvedAt: step.status === 'approved' || step.status === 'paid' ? decided : null,
      approvedBy: step.status === 'approved' || step.status === 'paid' ? 'Paydesk demo' : null,
      paidAt: step.status === 'paid' ? new Date(decided.getTime() + 3_600_000) : null,
      paidBy: step.status === 'paid' ? 'Paydesk demo' : null,
      rejectedAt: step.status === 'rejected' ? decided : null,
      rejectedBy: step.status === 'rejected' ? 'Paydesk demo' : null,
      createdAt,
    });
    // Posted at the database's clock, after the rest of the demo history (entries cannot be back-dated).
    const { holdId } = await holdWithdrawal(ledger, tx, row);
    if (step.status === 'paid') {
      await ledger.capture(tx, {
        merchantId: merchant.id,
        holdId,
        feeMinor: feeLocalMinor,
        idempotencyKey: `withdrawal:${row.id}:paid`,
        note: step.txHash,
      });
    }
    if (step.status === 'rejected') {
      await ledger.release(tx, {
        merchantId: merchant.id,
        holdId,
        idempotencyKey: `withdrawal:${row.id}:rejected`,
        note: step.reason,
      });
    }
  }
}
