import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type Currency, fromMinor, toMinor } from '@paydesk/shared';
import { feeOf } from '@paydesk/shared/collections/collections.schemas.ts';
import { localDate } from '@paydesk/shared/time-zone.ts';
import type { Tx } from '../../db/client.ts';
import { encrypt } from '../../lib/crypto.ts';
import { openChannel } from '../channels/index.ts';
import { newTradeNo, seedCollectionRow } from '../collections/index.ts';
import { createLedger } from '../ledger/index.ts';
import { claimOperatorAction, actionRefNo } from '../ops/index.ts';
import { DEMO_PAYEES, seedPayoutRow } from '../payouts/index.ts';
import { seedReceivedPayment } from '../reconciliation/index.ts';
import type { DemoMerchant } from './demo-collections.ts';
import type { DemoRazorpay } from './demo-razorpay.ts';

// The demo's live mode (DESIGN 13): every merchant's live row has a bank transfer collection channel of its
// country (code `bank`, its notifications at POST /channels/bank/notify), a little live history (orders paid
// by the bank's notification, orders waiting for the payer), a manual payout channel (`bank-payout`) with
// payouts waiting for the operator's batch, and a statement of the day in DATA_DIR/demo to import: one
// line pays an order, one pays the wrong amount, one is nobody's, and one order the bank notified is not on
// it. DATA_DIR/demo/live-channels.md says how to try each part.

/** The guide to the live channels, under DATA_DIR. */
export const DEMO_LIVE_GUIDE = path.join('demo', 'live-channels.md');

const ACCOUNTS: Record<'CNY' | 'INR' | 'BRL' | 'VND', Record<string, string>> = {
  CNY: {
    bank: '中国工商银行',
    branch: '上海分行营业部',
    account_name: 'Paydesk 支付科技有限公司',
    account_no: '1001244319024587612',
  },
  INR: {
    bank: 'HDFC Bank',
    account_name: 'Paydesk India Pvt Ltd',
    account_no: '50200012345678',
    ifsc: 'HDFC0000240',
    upi_id: 'paydesk@hdfcbank',
  },
  BRL: {
    bank: 'Banco do Brasil',
    account_name: 'PAYDESK BRASIL LTDA',
    account_no: '12345-6',
    pix_key: 'pix@paydesk.com.br',
    city: 'SAO PAULO',
  },
  VND: {
    bank: 'Vietcombank',
    account_name: 'CONG TY PAYDESK',
    account_no: '0071000888999',
    bank_bin: '970436',
  },
};

const AMOUNTS: Record<'CNY' | 'INR' | 'BRL' | 'VND', string[]> = {
  CNY: ['388.00', '1288.00', '99.90', '560.00', '218.50'],
  INR: ['1499.00', '2999.00', '349.00', '899.00', '4599.00'],
  BRL: ['149.90', '89.90', '259.00', '45.00', '399.00'],
  VND: ['350000', '1250000', '99000', '480000', '2150000'],
};

export type DemoLiveChannel = {
  merchantNo: string;
  currency: Currency;
  notifySecret: string;
  /** The order left for the reader to pay by a signed notification. */
  waiting: { tradeNo: string; amount: string };
  /** When the demo's notification says the payer paid (within the order's day). */
  paidAt: string;
  statement: { day: string; fileName: string; csv: string };
  payouts: number;
};

/** Opens the live channels and writes their history; answers what the guide and the statement file need. */
export async function seedDemoLiveChannels(
  tx: Tx,
  appKey: Buffer,
  merchant: DemoMerchant,
  now: Date,
): Promise<DemoLiveChannel> {
  const currency = merchant.currency as keyof typeof ACCOUNTS;
  const country = ({ CNY: 'CN', INR: 'IN', BRL: 'BR', VND: 'VN' } as const)[currency];
  const vnd = currency === 'VND';
  const notifySecret = randomBytes(24).toString('base64url');
  const bank = await openChannel(tx, {
    merchantId: merchant.id,
    code: 'bank',
    kind: 'collection',
    // eslint-disable-next-line paydesk/no-provider-name -- the seed opens it as an operator names it
    provider: 'bank_transfer',
    country,
    currency,
    feeRatePpm: 8_000,
    minAmountMinor: toMinor(vnd ? '10000' : '1.00', currency),
    maxAmountMinor: toMinor(vnd ? '500000000' : '100000.00', currency),
    settlementCycle: 'T1',
    // A payer takes time to open their bank: a transfer order stays payable for a day.
    expiryMinutes: 1440,
    settings: ACCOUNTS[currency],
    secrets: encrypt(appKey, JSON.stringify({ notify_secret: notifySecret })),
    openedBy: 'Paydesk demo',
  });
  // Five orders of the last hour: two paid by the bank's notification, three waiting for their payer.
  const amounts = AMOUNTS[currency];
  const orders = [];
  for (const [index, amount] of amounts.entries()) {
    const createdAt = new Date(now.getTime() - (60 - index * 8) * 60_000 - merchant.id);
    const amountMinor = toMinor(amount, currency);
    const paid = index < 2;
    const tradeNo = newTradeNo('C', createdAt);
    const row = (await seedCollectionRow(tx, {
      merchantId: merchant.id,
      channelId: bank.id,
      channelCode: bank.code,
      tradeNo,
      outTradeNo: `LIVE-${merchant.no}-${String(index + 1).padStart(3, '0')}`,
      amountMinor,
      feeMinor: feeOf(amountMinor, bank.feeRatePpm, bank.fixedFeeMinor),
      currency,
      payerName: ['Li Wei', 'Priya Sharma', 'Ana Souza', 'Nguyễn Văn An', 'Chen Jing'][index],
      status: paid ? 'paid' : 'to_be_paid',
      channelRef: paid ? `BANK${merchant.no}${index + 1}` : null,
      payUrl: `/pay/${tradeNo}`,
      expiresAt: new Date(createdAt.getTime() + bank.expiryMinutes * 60_000),
      paidAt: paid ? new Date(createdAt.getTime() + 4 * 60_000) : null,
      createdAt,
    }))!;
    orders.push(row);
    if (paid) {
      await seedReceivedPayment(tx, {
        merchantId: merchant.id,
        channelId: bank.id,
        txnId: `BANK${merchant.no}${index + 1}`,
        reference: `Payment ${tradeNo}`,
        amountMinor,
        currency,
        paidAt: row.paidAt!,
        businessDate: localDate(row.paidAt!, merchant.timeZone),
        payer: row.payerName,
        notifiedAt: row.paidAt!,
        collectionId: row.id,
        status: 'matched',
      });
    }
  }
  const day = localDate(orders[0].createdAt, merchant.timeZone);
  const money = (minor: bigint) => fromMinor(minor, currency);
  // The bank's statement of the day: order 1 (notified), order 3 exactly, order 4 short, one stranger;
  // order 2 was notified but is not on it (missing), order 5 waits for the reader.
  const lines = [
    [
      `BANK${merchant.no}1`,
      day,
      money(orders[0].amountMinor),
      `Payment ${orders[0].tradeNo}`,
      orders[0].payerName,
    ],
    [`ST${merchant.no}03`, day, money(orders[2].amountMinor), orders[2].tradeNo, orders[2].payerName],
    [
      `ST${merchant.no}04`,
      day,
      money(orders[3].amountMinor - toMinor(vnd ? '1000' : '1.00', currency)),
      `${orders[3].tradeNo} (short)`,
      orders[3].payerName,
    ],
    [
      `ST${merchant.no}09`,
      day,
      money(toMinor(vnd ? '77000' : '77.00', currency)),
      'TRANSFER FROM A STRANGER',
      'Unknown payer',
    ],
  ];
  const csv =
    ['Transaction ID,Date,Amount,Reference,Payer', ...lines.map((l) => l.map(csvCell).join(','))].join('\n') +
    '\n';
  const payouts = await seedManualPayouts(tx, merchant, now);
  return {
    merchantNo: merchant.no,
    currency,
    notifySecret,
    waiting: { tradeNo: orders[4].tradeNo, amount: money(orders[4].amountMinor) },
    paidAt: now.toISOString(),
    statement: { day, fileName: `statement-${merchant.no}-${day}.csv`, csv },
    payouts,
  };
}

const csvCell = (value: string | null) => {
  const text = value ?? '';
  return /[",\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};

/** A live opening transfer-in, a manual payout channel and three payouts waiting for the operator's batch. */
async function seedManualPayouts(tx: Tx, merchant: DemoMerchant, now: Date): Promise<number> {
  const currency = merchant.currency as keyof typeof ACCOUNTS;
  const country = ({ CNY: 'CN', INR: 'IN', BRL: 'BR', VND: 'VN' } as const)[currency];
  const vnd = currency === 'VND';
  const ledger = createLedger();
  const openingMinor = toMinor(vnd ? '50000000' : '20000.00', currency);
  // A merchant whose live balance cannot hold the payouts gets an operator's live transfer-in first.
  if ((await ledger.balanceOf(tx, merchant.id)).availableMinor < openingMinor)
    await transferInLive(tx, merchant, openingMinor, now);
  const channel = await openChannel(tx, {
    merchantId: merchant.id,
    code: 'bank-payout',
    kind: 'payout',
    // eslint-disable-next-line paydesk/no-provider-name -- the seed opens it as an operator names it
    provider: 'manual',
    country,
    currency,
    feeRatePpm: 5_000,
    fixedFeeMinor: vnd ? 3000n : 200n,
    minAmountMinor: toMinor(vnd ? '10000' : '1.00', currency),
    maxAmountMinor: toMinor(vnd ? '500000000' : '50000.00', currency),
    openedBy: 'Paydesk demo',
  });
  const payee: Record<string, string> = DEMO_PAYEES[currency as 'CNY'];
  const amounts = vnd ? ['1500000', '820000', '3300000'] : ['850.00', '120.40', '2300.00'];
  for (const [index, amount] of amounts.entries()) {
    const amountMinor = toMinor(amount, currency);
    const feeMinor = feeOf(amountMinor, channel.feeRatePpm, channel.fixedFeeMinor);
    const createdAt = new Date(now.getTime() - (30 - index * 5) * 60_000 - merchant.id);
    const tradeNo = newTradeNo('P', createdAt);
    const row = (await seedPayoutRow(tx, {
      merchantId: merchant.id,
      channelId: channel.id,
      channelCode: channel.code,
      tradeNo,
      outTradeNo: `LIVE-PAY-${merchant.no}-${String(index + 1).padStart(3, '0')}`,
      source: 'gateway',
      amountMinor,
      feeMinor,
      currency,
      status: 'pending',
      accountType: 'individual',
      bankCode: payee.bank_code ?? null,
      bankName: payee.bank_name ?? null,
      branchName: payee.branch_name ?? null,
      ifsc: payee.ifsc ?? null,
      cpfCnpj: payee.cpf_cnpj ?? null,
      payeeName: payee.payee_name,
      accountNo: payee.account_no,
      createdAt,
    }))!;
    await ledger.hold(tx, {
      merchantId: merchant.id,
      type: 'payout_deduction',
      amountMinor: amountMinor + feeMinor,
      refType: 'payout',
      refId: String(row.id),
      refNo: tradeNo,
      note: payee.payee_name,
      idempotencyKey: `payout:${row.id}:deduct`,
    });
  }
  return amounts.length;
}

/**
 * DATA_DIR/demo: each merchant's statement file, and live-channels.md, a guide to trying the live channels
 * (the notification secrets are in it: the demo's, for this machine). Answers the guide's path.
 */
export function writeDemoLiveGuide(
  dataDir: string,
  channels: DemoLiveChannel[],
  port: number | string,
  razorpay?: DemoRazorpay,
): string {
  const folder = path.join(dataDir, 'demo');
  mkdirSync(folder, { recursive: true });
  const sections = channels.map((c) => {
    const statement = path.join(folder, c.statement.fileName);
    writeFileSync(statement, c.statement.csv);
    const body = JSON.stringify({
      transaction_id: `DEMO-${c.merchantNo}-1`,
      reference: c.waiting.tradeNo,
      amount: c.waiting.amount,
      currency: c.currency,
      paid_at: c.paidAt,
    });
    return `## ${c.merchantNo} (${c.currency})

- Pay page of the order waiting for its payer: http://localhost:${port}/pay/${c.waiting.tradeNo}
- The bank's notification secret of channel \`bank\`: \`${c.notifySecret}\`
- Pay it as the bank would (a signed notification; run it twice: the second changes nothing):

  \`\`\`sh
  BODY='${body}'
  SIG=$(printf '%s' "$BODY" | openssl dgst -sha256 -hmac '${c.notifySecret}' -r | cut -d' ' -f1)
  curl -s -X POST http://localhost:${port}/channels/bank/notify -H 'content-type: application/json' -H "x-channel-signature: $SIG" --data "$BODY"
  \`\`\`

- Import the bank's statement of ${c.statement.day} and reconcile the day:

  \`\`\`sh
  npm run ops -- statement:import --merchant ${c.merchantNo} --channel bank --date ${c.statement.day} --format csv --file ${statement} --reason "daily statement"
  npm run ops -- reconcile:show --merchant ${c.merchantNo} --channel bank --date ${c.statement.day}
  \`\`\`

- Pay the ${c.payouts} payouts waiting on \`bank-payout\` through the bank: export the batch, then import the bank's result file (columns Reference, Status PAID or FAILED, Bank reference, Reason):

  \`\`\`sh
  npm run ops -- payout:batch-export --merchant ${c.merchantNo} --channel bank-payout --out batch-${c.merchantNo}.csv --reason "morning batch"
  npm run ops -- payout:batch-import --merchant ${c.merchantNo} --channel bank-payout --file result-${c.merchantNo}.csv --reason "bank result"
  \`\`\`
`;
  });
  const guide = path.join(dataDir, DEMO_LIVE_GUIDE);
  writeFileSync(
    guide,
    `# The demo's live channels

Each demo merchant's live mode has a bank transfer channel of its country (\`bank\`) and a manual payout
channel (\`bank-payout\`): log in as its ROOT (the console opens in live mode; its sandbox history is in
test mode) to see their orders. The commands
below use the default DATA_DIR; give yours as npm start did. See the README, "Connect a real channel", for
what each step does.

${sections.join('\n')}${razorpay ? razorpaySection(razorpay, port) : ''}`,
  );
  return guide;
}

/** The Razorpay channel's part of the guide. */
const razorpaySection = (r: DemoRazorpay, port: number | string) => `
## ${r.merchantNo} (INR): Razorpay

This merchant's live mode has a Razorpay channel (\`payment-links\`) whose base address is the demo's own
stand-in of Razorpay's API (\`http://127.0.0.1:${port}/sandbox/razorpay\`; a real channel is opened with
Razorpay's address and your keys, see the README).

- Order ${r.waiting.tradeNo} (${r.waiting.amount} INR) waits for its payer: open its Razorpay page,
  ${r.waiting.payUrl}, and press Pay. The stand-in sends the signed \`payment_link.paid\` webhook to
  \`/channels/payment-links/notify\`, and the order is paid (log in as root@inr.demo.paydesk.test).
- A new order on it from your server: \`POST /gateway/v1/collections\` with \`"channel": "payment-links"\`; its
  \`pay_url\` becomes the payment link's page once the link is made (a job, within seconds).
`;

/** An operator's live transfer-in, as funds:transfer-in posts it, two hours back. */
async function transferInLive(tx: Tx, merchant: DemoMerchant, amountMinor: bigint, now: Date) {
  const currency = merchant.currency;
  const ledger = createLedger();
  const action = (await claimOperatorAction(tx, {
    operatorName: 'Paydesk demo',
    action: 'funds.transfer_in',
    merchantId: merchant.id,
    reason: 'Demo live deposit',
    idempotencyKey: `demo:${merchant.no}:live-deposit`,
    detail: { request: { merchant: merchant.no, amount: fromMinor(amountMinor, currency) } },
    createdAt: new Date(now.getTime() - 2 * 3_600_000),
  }))!;
  await ledger.post(tx, {
    merchantId: merchant.id,
    type: 'transfer_in',
    amountMinor,
    refType: 'operator_action',
    refId: String(action.id),
    refNo: actionRefNo(action.id),
    note: 'Opening deposit',
    idempotencyKey: `operator_action:${action.id}:transfer_in`,
  });
}
