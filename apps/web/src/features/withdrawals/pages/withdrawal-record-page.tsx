import { Typography } from 'antd';
import {
  WALLET_NETWORKS,
  WITHDRAWAL_STATUSES,
  type Withdrawal,
  WithdrawalListQuerySchema,
} from '@paydesk/shared/withdrawals/withdrawals.schemas.ts';
import {
  column,
  declaredListPage,
  type DrawerField,
  filter,
  statusTag,
  sum,
} from '../../../components/list-page/index.ts';
import { currencyUnit } from '../../../components/money-text.tsx';
import { withdrawalsApi } from '../api/get-withdrawals.ts';
import { formatUsdt } from '../components/usdt.ts';

/** A withdrawal's review status (DESIGN section 4): `status.<value>` of the withdrawal texts. */
const WITHDRAWAL_STATUS = statusTag({
  pending_review: 'processing',
  approved: 'blue',
  paid: 'success',
  rejected: 'error',
});

/** "TR7NHq…gjLj6t": long wallet addresses and hashes shortened in the table; the drawer has them whole. */
const shorten = (value: string) => (value.length > 16 ? `${value.slice(0, 8)}…${value.slice(-6)}` : value);

/** An amount of USDT, the only currency withdrawn ("100.00 USDT"). */
const usdt = (amount: string) => `${formatUsdt(amount)} USDT`;

/** The local figures of the drawer, labelled with the local unit ("Amount (Yuan)"). */
const localField = (
  key: string,
  field: 'local_amount' | 'local_fee' | 'local_total',
): DrawerField<Withdrawal> => ({
  key,
  label: (t, w) => t(`detail.${key}`, { currency: currencyUnit(w.local_currency) }),
  kind: 'money',
  field,
  currency: { field: 'local_currency' },
  unit: 'none',
});

/** Withdrawals > Withdrawal history: the merchant's withdrawals, newest first. */
export default declaredListPage({
  name: 'withdrawal',
  namespace: 'withdrawals',
  title: 'routes:withdrawalRecord',
  query: WithdrawalListQuerySchema,
  api: withdrawalsApi,
  rowKey: 'withdrawal_no',
  columns: [
    { key: 'no', title: 'columns.withdrawalNo', kind: 'text', field: 'withdrawal_no' },
    {
      key: 'amount',
      title: 'columns.amount',
      kind: 'custom',
      align: 'right',
      render: (row) => usdt(row.amount),
    },
    { key: 'fee', title: 'columns.fee', kind: 'custom', align: 'right', render: (row) => usdt(row.fee) },
    column.money('localTotal', 'local_total', { currency: { field: 'local_currency' } }),
    column.text('network', 'network'),
    {
      key: 'address',
      title: 'columns.address',
      kind: 'custom',
      render: (row) => <span title={row.address}>{shorten(row.address)}</span>,
    },
    column.status(WITHDRAWAL_STATUS),
    {
      key: 'txHashOrReason',
      title: (t) => `${t('columns.txHash')} / ${t('columns.reason')}`,
      kind: 'custom',
      render: (row) =>
        row.tx_hash ? (
          <Typography.Text copyable={{ text: row.tx_hash }} title={row.tx_hash}>
            {shorten(row.tx_hash)}
          </Typography.Text>
        ) : row.reject_reason ? (
          <Typography.Text type="danger" ellipsis={{ tooltip: row.reject_reason }} style={{ maxWidth: 240 }}>
            {row.reject_reason}
          </Typography.Text>
        ) : (
          '-'
        ),
    },
    column.time('createdAt', 'created_at'),
  ],
  filters: [
    filter.text('withdrawal_no', 'withdrawalNo', 260),
    filter.status(WITHDRAWAL_STATUSES),
    filter.select('network', 'network', WALLET_NETWORKS, { labels: 'networks' }),
    filter.timeRange(),
  ],
  sums: [
    { key: 'amount', label: 'sums.amount', kind: 'custom', render: (sums) => usdt(sums.amount) },
    { key: 'fee', label: 'sums.fee', kind: 'custom', render: (sums) => usdt(sums.fee) },
    sum.count('count', 'count'),
    sum.money('localTotal', 'local_total'),
  ],
  export: 'withdrawals',
  // The list's rows carry every field: where it went, what it cost, the transaction once paid, why if rejected.
  detail: {
    title: { param: 'no' },
    alerts: [
      {
        type: 'error',
        title: 'detail.rejectReason',
        field: 'reject_reason',
        testId: 'withdrawal-reject-reason',
      },
    ],
    fields: [
      { column: 'no', copyable: true },
      'status',
      { key: 'currency', label: 'detail.currency', kind: 'text', field: 'currency' },
      {
        key: 'network',
        label: 'columns.network',
        kind: 'custom',
        render: (w, { t }) => t(`networks.${w.network}`),
      },
      { key: 'address', label: 'columns.address', kind: 'text', field: 'address', copyable: true },
      'amount',
      {
        key: 'fee',
        label: 'columns.fee',
        kind: 'custom',
        render: (w, { t }) => (w.is_free ? t('detail.free') : usdt(w.fee)),
      },
      {
        key: 'rate',
        label: 'detail.rate',
        kind: 'custom',
        render: (w, { t }) => t('form.rateText', { rate: w.rate, currency: currencyUnit(w.local_currency) }),
      },
      localField('localAmount', 'local_amount'),
      localField('localFee', 'local_fee'),
      localField('localTotal', 'local_total'),
      {
        key: 'txHash',
        label: 'columns.txHash',
        kind: 'custom',
        omitEmpty: true,
        render: (w) =>
          w.tx_hash && (
            <Typography.Text copyable code data-testid="withdrawal-tx-hash">
              {w.tx_hash}
            </Typography.Text>
          ),
      },
      'createdAt',
      { key: 'approvedAt', label: 'detail.approvedAt', kind: 'time', field: 'approved_at', omitEmpty: true },
      { key: 'paidAt', label: 'detail.paidAt', kind: 'time', field: 'paid_at', omitEmpty: true },
      { key: 'rejectedAt', label: 'detail.rejectedAt', kind: 'time', field: 'rejected_at', omitEmpty: true },
    ],
  },
});
