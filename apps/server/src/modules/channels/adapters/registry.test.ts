import { describe, expect, it } from 'vitest';
import { PROVIDERS } from '@paydesk/shared/channels/providers.ts';
import type { ChannelRow } from '../channels.repository.ts';
import {
  adapterFor,
  allAdapters,
  providerServesMode,
  providersNotSettled,
  takesNewOrders,
} from './registry.ts';

// The registry maps each provider to its adapter; the sandbox's rules (DESIGN 6 and 12) come from it.

const channel = (values: Partial<ChannelRow> = {}) =>
  ({ provider: 'sandbox', sandboxMode: 'manual', sandboxDelaySeconds: 5, ...values }) as ChannelRow;

describe('the adapter registry', () => {
  it('has one adapter per provider, each under its own name', () => {
    expect(allAdapters().map((adapter) => adapter.provider)).toEqual([...PROVIDERS]);
    for (const provider of PROVIDERS) expect(adapterFor(provider).provider).toBe(provider);
    expect(() => adapterFor('paypal')).toThrow(/No channel adapter for the provider paypal/);
  });

  it('says which modes a provider serves: the sandbox test only', () => {
    expect(providerServesMode('sandbox', 'test')).toBe(true);
    expect(providerServesMode('sandbox', 'live')).toBe(false);
    expect(providerServesMode('paypal', 'test')).toBe(false);
  });

  it("keeps the sandbox's channels from orders and settlement where the sandbox is off", () => {
    expect(takesNewOrders(channel(), { sandboxEnabled: true })).toBe(true);
    expect(takesNewOrders(channel(), { sandboxEnabled: false })).toBe(false);
    expect(providersNotSettled({ sandboxEnabled: true })).toEqual([]);
    expect(providersNotSettled({ sandboxEnabled: false })).toEqual(['sandbox']);
  });

  it('the sandbox: its pay page, auto mode follows up after the delay, payouts always, refunds not yet', async () => {
    const sandbox = adapterFor('sandbox');
    const createdAt = new Date('2026-03-01T00:00:00Z');
    expect(sandbox.createCollection(channel(), { tradeNo: 'C1', createdAt })).toEqual({
      payUrl: '/sandbox/pay/C1',
    });
    expect(sandbox.collectionFollowsUp(channel())).toBe(false);
    const auto = channel({ sandboxMode: 'auto', sandboxDelaySeconds: 3 });
    expect(sandbox.collectionFollowsUp(auto)).toBe(true);
    expect(sandbox.createCollection(auto, { tradeNo: 'C2', createdAt }).followUp).toEqual({
      queue: 'sandbox.complete',
      data: { trade_no: 'C2' },
      startAfter: new Date('2026-03-01T00:00:03Z'),
    });
    expect(sandbox.submitPayout(channel(), { tradeNo: 'P1' }).followUp).toEqual({
      queue: 'sandbox.complete',
      data: { trade_no: 'P1' },
    });
    expect(sandbox.capabilities.kinds).toContain('refund');
    const refund = {
      refundNo: 'R1',
      tradeNo: 'C1',
      collectionRef: null,
      amountMinor: 100n,
      currency: 'CNY' as const,
      createdAt,
    };
    // A refund finishes after the channel's delay, by the same queue.
    expect(sandbox.submitRefund(channel(), refund)).toEqual({
      supported: true,
      followUp: {
        queue: 'sandbox.complete',
        data: { refund_no: 'R1' },
        startAfter: new Date(createdAt.getTime() + channel().sandboxDelaySeconds * 1000),
      },
    });
    expect(adapterFor('manual').submitRefund(channel(), refund)).toEqual({ supported: false });
    expect(adapterFor('bank_transfer').submitRefund(channel(), refund)).toEqual({
      supported: true,
      byOperator: true,
    });
    // Razorpay refunds by its Refunds API, in a job of its own queue.
    const razorpay = adapterFor('razorpay');
    expect(razorpay.capabilities.kinds).toContain('refund');
    expect(razorpay.submitRefund(channel({ provider: 'razorpay' }), refund)).toEqual({
      supported: true,
      followUp: { queue: 'razorpay.refund', data: { refund_no: 'R1' } },
    });
    expect(razorpay.queues).toContain('razorpay.refund');
  });

  it("the sandbox's notification is its page's form; a failure is safe elsewhere only if nothing left", () => {
    const sandbox = adapterFor('sandbox');
    const parsed = sandbox.parseNotification(
      channel(),
      {
        tradeNo: 'C1',
        headers: {},
        rawBody: 'result=paid',
      },
      {},
    );
    expect(parsed).toEqual({
      verified: true,
      reports: [{ tradeNo: 'C1', providerRef: expect.stringMatching(/^SBX\d{16}$/), outcome: 'succeeded' }],
    });
    expect(
      sandbox.parseNotification(channel(), { tradeNo: 'C1', headers: {}, rawBody: 'result=maybe' }, {}),
    ).toMatchObject({ verified: false });
    expect(sandbox.isSafeToRetryElsewhere({ stage: 'connect' })).toBe(true);
    expect(sandbox.isSafeToRetryElsewhere({ stage: 'unknown', status: 504 })).toBe(false);
  });
});
