import {
  PAYOUT_STATUSES,
  type PayoutDetail,
  PayoutListQuerySchema,
} from '@paydesk/shared/payouts/payouts.schemas.ts';
import { declaredListPage, type StatusTag } from '../../../components/list-page/index.ts';
import { payoutsApi } from '../api/get-payouts.ts';

/** A payout's status (DESIGN section 4): `status.<value>` of the payouts texts. */
const PAYOUT_STATUS: StatusTag = {
  labels: 'status',
  colors: {
    pending: 'default',
    processing: 'processing',
    success: 'success',
    failed: 'error',
    cancelled: 'default',
    rejected: 'error',
    refund_received: 'warning',
  },
};

/** "Vietcombank (VCB)": the bank as the payout names it, by name, code or both. */
const bankOf = (payout: PayoutDetail): string | null => {
  if (payout.bank_name && payout.bank_code) return `${payout.bank_name} (${payout.bank_code})`;
  return payout.bank_name ?? payout.bank_code;
};

/** Send money > Send money history: the merchant's payouts (console and gateway), newest first. */
export default declaredListPage({
  name: 'payout',
  namespace: 'payouts',
  title: 'routes:transfers',
  query: PayoutListQuerySchema,
  api: payoutsApi,
  rowKey: 'trade_no',
  columns: [
    { key: 'tradeNo', title: 'columns.tradeNo', kind: 'text', field: 'trade_no' },
    { key: 'outTradeNo', title: 'columns.outTradeNo', kind: 'text', field: 'out_trade_no' },
    {
      key: 'amount',
      title: 'columns.amount',
      kind: 'money',
      field: 'amount',
      currency: { field: 'currency' },
    },
    { key: 'fee', title: 'columns.fee', kind: 'money', field: 'fee', currency: { field: 'currency' } },
    { key: 'status', title: 'columns.status', kind: 'status', field: 'status', ...PAYOUT_STATUS },
    { key: 'payee', title: 'columns.payee', kind: 'text', field: 'payee_name' },
    // Masked by the server (all but the last 4 characters); the console never has the full number.
    { key: 'account', title: 'columns.account', kind: 'text', field: 'account_no' },
    { key: 'channel', title: 'columns.channel', kind: 'text', field: 'channel' },
    { key: 'createdAt', title: 'columns.createdAt', kind: 'time', field: 'created_at' },
    { key: 'finishedAt', title: 'columns.finishedAt', kind: 'time', field: 'finished_at' },
  ],
  filters: [
    { kind: 'text', name: 'trade_no', label: 'columns.tradeNo', placeholder: 'filters.tradeNo', width: 240 },
    {
      kind: 'text',
      name: 'out_trade_no',
      label: 'columns.outTradeNo',
      placeholder: 'filters.outTradeNo',
      width: 260,
    },
    {
      kind: 'select',
      name: 'status',
      label: 'columns.status',
      placeholder: 'filters.status',
      options: PAYOUT_STATUSES,
      labels: 'status',
    },
    {
      kind: 'timeRange',
      from: 'start_time',
      to: 'end_time',
      label: 'columns.time',
      placeholder: ['filters.startTime', 'filters.endTime'],
    },
  ],
  // The payment amount, count and service fee of the whole filter, not just this page.
  sums: [
    { key: 'amount', label: 'sums.amount', kind: 'money', field: 'amount' },
    { key: 'count', label: 'sums.count', kind: 'count', field: 'count' },
    { key: 'fee', label: 'sums.fee', kind: 'money', field: 'fee' },
  ],
  empty: { none: 'empty.none', filtered: 'empty.filtered' },
  export: 'payouts',
  detail: {
    title: { key: 'detail.title', param: 'tradeNo' },
    alerts: [
      { type: 'error', title: 'detail.failureReason', field: 'failure_reason', testId: 'payout-failure' },
    ],
    // Bank details are the channel's country's: those a payout does not have are left out, not dashed.
    fields: [
      { key: 'tradeNo', label: 'columns.tradeNo', kind: 'text', field: 'trade_no', copyable: true },
      { key: 'outTradeNo', label: 'columns.outTradeNo', kind: 'text', field: 'out_trade_no', copyable: true },
      { key: 'status', label: 'columns.status', kind: 'status', field: 'status', ...PAYOUT_STATUS },
      {
        key: 'amount',
        label: 'columns.amount',
        kind: 'money',
        field: 'amount',
        currency: { field: 'currency' },
      },
      { key: 'fee', label: 'columns.fee', kind: 'money', field: 'fee', currency: { field: 'currency' } },
      { key: 'currency', label: 'detail.currency', kind: 'text', field: 'currency' },
      { key: 'channel', label: 'columns.channel', kind: 'text', field: 'channel' },
      {
        key: 'source',
        label: 'detail.source',
        kind: 'custom',
        render: (payout, { t }) => t(`sources.${payout.source}`),
      },
      {
        key: 'accountType',
        label: 'detail.accountType',
        kind: 'custom',
        render: (payout, { t }) => t(`accountTypes.${payout.account_type}`),
      },
      { key: 'bank', label: 'detail.bank', kind: 'custom', render: bankOf, omitEmpty: true },
      { key: 'branchName', label: 'detail.branchName', kind: 'text', field: 'branch_name', omitEmpty: true },
      { key: 'ifsc', label: 'detail.ifsc', kind: 'text', field: 'ifsc', omitEmpty: true },
      { key: 'cpfCnpj', label: 'detail.cpfCnpj', kind: 'text', field: 'cpf_cnpj', omitEmpty: true },
      { key: 'payee', label: 'columns.payee', kind: 'text', field: 'payee_name' },
      { key: 'account', label: 'columns.account', kind: 'text', field: 'account_no' },
      { key: 'note', label: 'detail.note', kind: 'text', field: 'note' },
      { key: 'createdAt', label: 'columns.createdAt', kind: 'time', field: 'created_at' },
      { key: 'finishedAt', label: 'columns.finishedAt', kind: 'time', field: 'finished_at' },
    ],
    sections: [
      {
        kind: 'timeline',
        field: 'timeline',
        title: 'detail.timeline',
        empty: 'detail.noTimeline',
        steps: 'detail.steps',
        colors: {
          created: 'blue',
          processing: 'blue',
          success: 'green',
          failed: 'red',
          cancelled: 'gray',
          rejected: 'red',
          refund_received: 'orange',
          notified: 'blue',
        },
      },
      { kind: 'callbacks', field: 'callbacks', perm: 'payout:notify' },
    ],
  },
});
