import { parsePix, hasError } from 'pix-utils';
import { QRPay } from 'vietnam-qr-pay';
import { describe, expect, it } from 'vitest';
import { paymentQr } from './index.ts';

// The QR codes a payer's banking app reads (DESIGN 13), decoded with the same libraries a wallet uses, and
// the EMVCo CRC16 of VietQR and Pix checked by hand: what we encode is what the app will pay.

const TRADE_NO = 'C20261128120000123456789';

/** CRC16/CCITT-FALSE over the payload up to and including "6304", as EMVCo QR (VietQR, Pix) requires. */
function crc16(text: string): string {
  let crc = 0xffff;
  for (const byte of Buffer.from(text, 'utf8')) {
    crc ^= byte << 8;
    for (let i = 0; i < 8; i += 1) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

const crcHolds = (payload: string) => payload.slice(-4) === crc16(payload.slice(0, -4));

describe('bank transfer QR codes', () => {
  it('VietQR (VND): NAPAS bank, account, exact amount and the trade_no as purpose, CRC correct', () => {
    const qr = paymentQr(
      'VND',
      { bank: 'Vietcombank', account_name: 'PAYDESK', account_no: '0071000888999', bank_bin: '970436' },
      { tradeNo: TRADE_NO, amountMinor: 1_250_000n },
    );
    expect(qr?.standard).toBe('vietqr');
    const decoded = new QRPay(qr!.payload);
    expect(decoded.isValid).toBe(true);
    expect(decoded.consumer?.bankBin).toBe('970436');
    expect(decoded.consumer?.bankNumber).toBe('0071000888999');
    expect(decoded.amount).toBe('1250000');
    expect(decoded.currency).toBe('704');
    expect(decoded.additionalData?.purpose).toBe(TRADE_NO);
    expect(crcHolds(qr!.payload)).toBe(true);
    // One digit changed breaks it: the check above is a real one.
    expect(crcHolds(qr!.payload.replace('1250000', '1250001'))).toBe(false);
  });

  it('Pix BR Code (BRL): key, name, city, amount and txid, CRC correct', () => {
    const qr = paymentQr(
      'BRL',
      {
        bank: 'Banco do Brasil',
        account_name: 'PAYDESK BRASIL',
        account_no: '12345-6',
        pix_key: 'pix@paydesk.example',
        city: 'SAO PAULO',
      },
      { tradeNo: TRADE_NO, amountMinor: 12_345n },
    );
    expect(qr?.standard).toBe('pix');
    const pix = parsePix(qr!.payload);
    expect(hasError(pix)).toBe(false);
    expect(pix).toMatchObject({
      type: 'STATIC',
      pixKey: 'pix@paydesk.example',
      merchantName: 'PAYDESK BRASIL',
      merchantCity: 'SAO PAULO',
      transactionAmount: 123.45,
      txid: TRADE_NO,
    });
    expect(crcHolds(qr!.payload)).toBe(true);
  });

  it('UPI intent (INR): payee address, name, amount, currency and the trade_no as reference', () => {
    const qr = paymentQr(
      'INR',
      {
        bank: 'HDFC Bank',
        account_name: 'Paydesk India',
        account_no: '50100012345678',
        ifsc: 'HDFC0000001',
        upi_id: 'paydesk@hdfcbank',
      },
      { tradeNo: TRADE_NO, amountMinor: 99_950n },
    );
    expect(qr?.standard).toBe('upi');
    const url = new URL(qr!.payload);
    expect(url.protocol).toBe('upi:');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      pa: 'paydesk@hdfcbank',
      pn: 'Paydesk India',
      am: '999.50',
      cu: 'INR',
      tr: TRADE_NO,
      tn: TRADE_NO,
    });
  });

  it('CNY has no national QR: the page shows the bank details alone', () => {
    expect(
      paymentQr(
        'CNY',
        { bank: '中国工商银行', account_name: '支付台', account_no: '6222020200112233', branch: '上海分行' },
        { tradeNo: TRADE_NO, amountMinor: 100n },
      ),
    ).toBeUndefined();
  });
});
