// What the refunds feature offers other features (eslint: paydesk/feature-door): a collection's refunds
// section with its Refund action (the collections drawer), and what is left to refund of an order.
export { OrderRefunds, type RefundedOrder } from './components/order-refunds.tsx';
export { refundableOf } from './refund-amount.ts';
