import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { convertDown, type Currency, fromMinor, toMinor } from '@paydesk/shared';
import type { TopUpNetwork } from '@paydesk/shared/top-ups/top-ups.schemas.ts';
import type { Config } from '../../config.ts';
import type { Tx } from '../../db/client.ts';
import type { FileStorage } from '../../lib/storage/index.ts';
import { newTradeNo } from '../collections/index.ts';
import { createLedger } from '../ledger/index.ts';
import { recordSecurityEvent } from '../security-log/index.ts';
import { topUpsRepository } from './top-ups.repository.ts';

type DemoTopUp = {
  hoursAgo: number;
  network: TopUpNetwork;
  amount: string;
  decision?: { status: 'approved'; received: string; rate: string } | { status: 'rejected'; reason: string };
};

// A few top-ups in every state for the demo merchant (DESIGN 4), oldest first.
const DEMO_TOP_UPS: DemoTopUp[] = [
  {
    hoursAgo: 76,
    network: 'TRC20',
    amount: '500',
    decision: { status: 'approved', received: '500', rate: '7.10' },
  },
  {
    hoursAgo: 52,
    network: 'ERC20',
    amount: '1200.5',
    decision: { status: 'approved', received: '1200.499', rate: '7.0850' },
  },
  {
    hoursAgo: 30,
    network: 'TRC20',
    amount: '300',
    decision: { status: 'rejected', reason: 'No matching transfer found on chain.' },
  },
  { hoursAgo: 5, network: 'TRC20', amount: '800' },
  { hoursAgo: 1, network: 'ERC20', amount: '150.25' },
];

/** A small phone-sized "wallet app" screenshot of the transfer (a generated PNG, a few KB). */
async function demoScreenshot(topUp: DemoTopUp, address: string): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="360" height="480">
    <rect width="360" height="480" fill="#f5f7fa"/>
    <rect x="0" y="0" width="360" height="64" fill="#1677ff"/>
    <text x="24" y="40" font-family="sans-serif" font-size="20" fill="#fff">Transfer sent</text>
    <circle cx="180" cy="140" r="36" fill="#52c41a"/>
    <path d="M162 140 l12 12 l24 -26" stroke="#fff" stroke-width="6" fill="none"/>
    <text x="180" y="228" font-family="sans-serif" font-size="30" text-anchor="middle" fill="#1f1f1f">-${topUp.amount} USDT</text>
    <text x="24" y="290" font-family="sans-serif" font-size="14" fill="#8c8c8c">Network</text>
    <text x="336" y="290" font-family="sans-serif" font-size="14" text-anchor="end" fill="#1f1f1f">${topUp.network}</text>
    <text x="24" y="326" font-family="sans-serif" font-size="14" fill="#8c8c8c">To</text>
    <text x="336" y="326" font-family="sans-serif" font-size="12" text-anchor="end" fill="#1f1f1f">${address.slice(0, 10)}...${address.slice(-8)}</text>
    <text x="24" y="362" font-family="sans-serif" font-size="14" fill="#8c8c8c">Status</text>
    <text x="336" y="362" font-family="sans-serif" font-size="14" text-anchor="end" fill="#389e0d">Confirmed</text>
  </svg>`;
  return sharp(Buffer.from(svg)).png({ palette: true }).toBuffer();
}

/**
 * Seeds the demo merchant's top-ups: approved ones credited through the ledger (last, after the rest of the
 * demo's history), a rejected one with its reason, and two waiting for review; each with a screenshot
 * stored through the file storage.
 */
export async function seedDemoTopUps(
  tx: Tx,
  { storage, topUp }: { storage: FileStorage; topUp: Config['topUp'] },
  merchant: { id: number; currency: Currency },
  now: Date,
) {
  const ledger = createLedger();
  for (const item of DEMO_TOP_UPS) {
    const createdAt = new Date(now.getTime() - item.hoursAgo * 3_600_000);
    const address = topUp.addresses[item.network];
    const bytes = await demoScreenshot(item, address);
    const key = `recharges/${merchant.id}/${randomUUID()}.png`;
    await storage.put(key, bytes, { contentType: 'image/png' });
    const decision = item.decision;
    const receivedMinor = decision?.status === 'approved' ? toMinor(decision.received, 'USDT') : null;
    const usdRate = topUp.rates.USD ?? '1';
    const row = await topUpsRepository.insert(tx, {
      merchantId: merchant.id,
      topUpNo: newTradeNo('R', createdAt),
      network: item.network,
      depositAddress: address,
      amountMinor: toMinor(item.amount, 'USDT'),
      currency: merchant.currency,
      status: decision?.status ?? 'pending_review',
      screenshotKey: key,
      screenshotType: 'image/png',
      screenshotBytes: bytes.length,
      ...(decision && receivedMinor !== null && decision.status === 'approved'
        ? {
            receivedMinor,
            rate: decision.rate,
            usdRate,
            creditedMinor: convertDown(receivedMinor, 'USDT', decision.rate, merchant.currency),
            creditedUsdMinor: convertDown(receivedMinor, 'USDT', usdRate, 'USD'),
          }
        : {}),
      ...(decision
        ? {
            reviewedBy: 'Paydesk demo',
            reviewedAt: now,
            reviewReason: decision.status === 'rejected' ? decision.reason : 'Seen on chain.',
          }
        : {}),
      createdAt,
    });
    if (row.status === 'approved') {
      await ledger.post(tx, {
        merchantId: merchant.id,
        type: 'recharge',
        amountMinor: row.creditedMinor!,
        refType: 'recharge',
        refId: String(row.id),
        refNo: row.topUpNo,
        note: `${fromMinor(row.receivedMinor!, 'USDT')} USDT x ${row.rate}`,
        idempotencyKey: `recharge:${row.id}:credit`,
      });
    }
    if (decision) {
      await recordSecurityEvent(tx, null, {
        type: decision.status === 'approved' ? 'topup_approved' : 'topup_rejected',
        merchantId: merchant.id,
        userId: null,
        detail: { recharge_no: row.topUpNo, operator: 'Paydesk demo', reason: row.reviewReason },
      });
    }
  }
}
