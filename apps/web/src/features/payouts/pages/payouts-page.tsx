import {
  PAYOUT_STATUSES,
  type Payout,
  type PayoutDetail,
  PayoutListQuerySchema,
} from '@paydesk/shared/payouts/payouts.schemas.ts';
import {
  column,
  declaredListPage,
  orderDetail,
  orderList,
  statusTag,
} from '../../../components/list-page/index.ts';
import { payoutsApi } from '../api/get-payouts.ts';
import { PayoutApproval } from '../components/payout-approval.tsx';

/** A payout's status (DESIGN section 4): `status.<value>` of the payouts texts. */
const PAYOUT_STATUS = statusTag({
  pending_approval: 'gold',
  pending: 'default',
  processing: 'processing',
  success: 'success',
  failed: 'error',
  cancelled: 'default',
  rejected: 'error',
  refund_received: 'warning',
});

/** "Vietcombank (VCB)": the bank as the payout names it, by name, code or both. */
const bankOf = (payout: PayoutDetail): string | null => {
  if (payout.bank_name && payout.bank_code) return `${payout.bank_name} (${payout.bank_code})`;
  return payout.bank_name ?? payout.bank_code;
};

// The order list's columns, filters and sums (the payment amount, count and service fee of the whole
// filter, not just this page), with the payee and the account after the status.
const list = orderList<Payout>(PAYOUT_STATUS, PAYOUT_STATUSES, {
  afterStatus: [
    column.text('payee', 'payee_name'),
    // Masked by the server (all but the last 4 characters); the console never has the full number.
    column.text('account', 'account_no'),
  ],
  doneAt: { key: 'finishedAt', field: 'finished_at' },
});

/** Send money > Send money history: the merchant's payouts (console and gateway), newest first. */
export default declaredListPage({
  name: 'payout',
  namespace: 'payouts',
  title: 'routes:transfers',
  query: PayoutListQuerySchema,
  api: payoutsApi,
  ...list,
  export: 'payouts',
  detail: orderDetail<PayoutDetail>({
    alerts: [
      { type: 'error', title: 'detail.failureReason', field: 'failure_reason', testId: 'payout-failure' },
    ],
    // Bank details are the channel's country's: those a payout does not have are left out, not dashed.
    fields: [
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
      'payee',
      'account',
      { key: 'note', label: 'detail.note', kind: 'text', field: 'note' },
      'createdAt',
      'finishedAt',
    ],
    // Who made it, who approved or rejected it, and for one waiting, Approve and Reject (DESIGN 16).
    sections: [
      { kind: 'custom', title: 'approval.title', render: (payout) => <PayoutApproval payout={payout} /> },
    ],
    steps: {
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
    notify: 'payout:notify',
  }),
});
