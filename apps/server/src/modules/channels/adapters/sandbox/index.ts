import { randomInt } from 'node:crypto';
import { z } from 'zod';
import { CURRENCIES, type Currency, fromMinor } from '@paydesk/shared';
import { COUNTRIES } from '@paydesk/shared/collections/collections.schemas.ts';
import { AppError } from '../../../../lib/errors.ts';
import type { ChannelRow } from '../../channels.repository.ts';
import {
  type ChannelAdapter,
  type ChannelPorts,
  type FollowUp,
  isChannelFaultByDefault,
} from '../adapter.ts';
import { ourCollectionReport, ourPayoutReport } from '../outcomes.ts';

// The sandbox provider (DESIGN 6): the reference adapter, so every order's whole life runs on one machine.
// A collection is paid on the hosted test checkout (/sandbox/pay/{trade_no}, modules/sandbox) or, in
// `auto` mode, finishes by itself after the channel's delay with its success rate. A payout moves to
// processing at once, then after the delay an account ending in 0000 fails and any other succeeds.
// It marks orders paid on request, so it works only where config.sandboxEnabled (development, tests, the
// demo): elsewhere its channels take no order, its orders are not settled and its jobs do nothing.

const QUEUE = 'sandbox.complete';

/** The sandbox's own number for an order, as a bank's would be (channel_ref): "SBX" and 16 random digits. */
export const newSandboxReference = (): string =>
  `SBX${String(randomInt(0, 100_000_000)).padStart(8, '0')}${String(randomInt(0, 100_000_000)).padStart(8, '0')}`;

/** Where a collection's sandbox checkout lives; its forms post back to the same path. */
export const sandboxPayPath = (tradeNo: string): string => `/sandbox/pay/${encodeURIComponent(tradeNo)}`;

const isAuto = (channel: ChannelRow) => channel.sandboxMode === 'auto';
const job = (tradeNo: string, startAfter?: Date): FollowUp => ({
  queue: QUEUE,
  data: { trade_no: tradeNo },
  ...(startAfter ? { startAfter } : {}),
});

/** A 409 means the order moved meanwhile (paid on the page, expired, finished by an operator). */
async function unlessMoved(step: () => Promise<unknown>): Promise<void> {
  try {
    await step();
  } catch (error) {
    if (error instanceof AppError && error.status === 409) return;
    throw error;
  }
}

/** A collection in auto mode: paid with the channel's success rate, else failed. */
async function completeCollection(tradeNo: string, ports: ChannelPorts) {
  const order = await ports.collections.findAny(tradeNo);
  if (!order || order.status !== 'to_be_paid') return;
  const channel = await ports.findChannel(order.channelId);
  if (!channel || !isAuto(channel)) return;
  const paid = ports.random() * 1_000_000 < channel.sandboxSuccessPpm;
  await unlessMoved(() => ports.collections.finish(tradeNo, paid ? 'paid' : 'failed', newSandboxReference()));
}

/** A payout: processing at once (with its reference), then after the delay its end. */
async function stepPayout(tradeNo: string, ports: ChannelPorts) {
  const row = await ports.payouts.findAny(tradeNo);
  if (!row) return;
  if (row.status === 'pending') {
    await unlessMoved(async () => {
      await ports.payouts.transition(tradeNo, 'processing', null, newSandboxReference());
      const channel = await ports.findChannel(row.channelId);
      const delaySeconds = channel?.sandboxDelaySeconds ?? 5;
      await ports.send(job(tradeNo, new Date(ports.now().getTime() + delaySeconds * 1000)));
    });
    return;
  }
  if (row.status === 'processing') {
    await unlessMoved(() =>
      row.accountNo.endsWith('0000')
        ? ports.payouts.transition(
            tradeNo,
            'failed',
            'Sandbox: the receiving account does not exist (it ends in 0000).',
          )
        : ports.payouts.transition(tradeNo, 'success'),
    );
  }
}

/** A refund, after the delay: failed when its amount ends in .13, else succeeded. */
async function finishRefund(refundNo: string, ports: ChannelPorts) {
  const refund = await ports.refunds.findAny(refundNo);
  if (!refund || refund.status !== 'processing') return;
  await unlessMoved(() =>
    fromMinor(refund.amountMinor, refund.currency as Currency).endsWith('.13')
      ? ports.refunds.finish(refundNo, 'failed', 'Sandbox: refunds of an amount ending in .13 fail.')
      : ports.refunds.finish(refundNo, 'succeeded', null, newSandboxReference()),
  );
}

export const sandboxAdapter: ChannelAdapter = {
  provider: 'sandbox',
  capabilities: {
    kinds: ['collection', 'payout', 'refund'],
    modes: ['test'],
    countries: COUNTRIES,
    currencies: Object.keys(CURRENCIES) as Currency[],
  },
  // Its terms are the channel's own columns (sandbox_mode, success rate, delay): no settings, no secrets.
  settingsSchema: () => z.object({}).strict(),
  secrets: [],
  notifies: false,
  acceptsOrders: (settings) => settings.sandboxEnabled,
  // Off, its orders (which anyone could mark paid) never become money a merchant can withdraw.
  settles: (settings) => settings.sandboxEnabled,
  collectionFollowsUp: isAuto,
  createCollection: (channel, order) => ({
    payUrl: sandboxPayPath(order.tradeNo),
    ...(isAuto(channel)
      ? {
          followUp: job(
            order.tradeNo,
            new Date(order.createdAt.getTime() + channel.sandboxDelaySeconds * 1000),
          ),
        }
      : {}),
  }),
  // The sandbox keeps no state of its own: our order is what it knows.
  queryCollection: (_channel, tradeNo, ports) => ourCollectionReport(tradeNo, ports),
  submitPayout: (_channel, order) => ({ followUp: job(order.tradeNo) }),
  queryPayout: (_channel, tradeNo, ports) => ourPayoutReport(tradeNo, ports),
  refundsByOperator: false,
  // A refund succeeds after the channel's delay, or fails when its amount ends in .13 (DESIGN 14).
  submitRefund: (channel, refund) => ({
    supported: true,
    followUp: {
      queue: QUEUE,
      data: { refund_no: refund.refundNo },
      startAfter: new Date(refund.createdAt.getTime() + channel.sandboxDelaySeconds * 1000),
    },
  }),
  // Its one notification is its own checkout page's form (result=paid|failed), served by this server.
  parseNotification(_channel, { tradeNo, rawBody }) {
    const result = new URLSearchParams(rawBody).get('result');
    if (!tradeNo || (result !== 'paid' && result !== 'failed'))
      return { verified: false, reason: 'The result must be paid or failed.' };
    return {
      verified: true,
      reports: [
        {
          tradeNo,
          providerRef: newSandboxReference(),
          outcome: result === 'paid' ? 'succeeded' : 'failed',
        },
      ],
    };
  },
  // Nothing leaves this machine: a sandbox call never half-reaches anything.
  isSafeToRetryElsewhere: (failure) => failure.stage === 'connect',
  isChannelFault: isChannelFaultByDefault,
  queues: [QUEUE],
  async runJob(_queue, data, ports) {
    // Jobs queued before a restart without --demo (or by a sandbox channel left open) do nothing.
    if (!ports.settings.sandboxEnabled) return;
    if (typeof data.refund_no === 'string') return finishRefund(data.refund_no, ports);
    const tradeNo = typeof data.trade_no === 'string' ? data.trade_no : '';
    // Our numbers say the kind: collections C..., payouts P....
    if (tradeNo.startsWith('P')) await stepPayout(tradeNo, ports);
    else await completeCollection(tradeNo, ports);
  },
};
