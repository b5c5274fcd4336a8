import {
  PAYOUT_STATUSES,
  type Payout,
  type PayoutDetail,
  PayoutListQuerySchema,
} from '@paydesk/shared/payouts/payouts.schemas.ts';
import {
  amountCountFeeSums,
  declaredListPage,
  orderColumns,
  orderFields,
  orderFilters,
  orderSections,
  type StatusTag,
} from '../../../components/list-page/index.ts';
import { payoutsApi } from '../api/get-payouts.ts';
import { PayoutApproval } from '../components/payout-approval.tsx';

/** A payout's status (DESIGN section 4): `status.<value>` of the payouts texts. */
const PAYOUT_STATUS: StatusTag = {
  labels: 'status',
  colors: {
    pending_approval: 'gold',
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
  columns: orderColumns<Payout>(PAYOUT_STATUS, {
    afterStatus: [
      { key: 'payee', title: 'columns.payee', kind: 'text', field: 'payee_name' },
      // Masked by the server (all but the last 4 characters); the console never has the full number.
      { key: 'account', title: 'columns.account', kind: 'text', field: 'account_no' },
    ],
    doneAt: { key: 'finishedAt', field: 'finished_at' },
  }),
  filters: orderFilters(PAYOUT_STATUSES),
  // The payment amount, count and service fee of the whole filter, not just this page.
  sums: amountCountFeeSums(),
  export: 'payouts',
  detail: {
    title: { param: 'tradeNo' },
    alerts: [
      { type: 'error', title: 'detail.failureReason', field: 'failure_reason', testId: 'payout-failure' },
    ],
    // Bank details are the channel's country's: those a payout does not have are left out, not dashed.
    fields: [
      ...orderFields(PAYOUT_STATUS),
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
      // Who made it, who approved or rejected it, and for one waiting, Approve and Reject (DESIGN 16):
      // first, where the actions are seen without scrolling.
      {
        kind: 'custom',
        title: 'approval.title',
        render: (payout: PayoutDetail) => <PayoutApproval payout={payout} />,
      },
      ...orderSections<PayoutDetail>(
        {
          created: 'blue',
          approved: 'green',
          processing: 'blue',
          success: 'green',
          failed: 'red',
          cancelled: 'gray',
          rejected: 'red',
          refund_received: 'orange',
          notified: 'blue',
        },
        'payout:notify',
      ),
    ],
  },
});
