import { Typography } from 'antd';
import {
  TOP_UP_NETWORKS,
  TOP_UP_STATUSES,
  TopUpListQuerySchema,
} from '@paydesk/shared/top-ups/top-ups.schemas.ts';
import {
  declaredListPage,
  type StatusTag,
  statusColumn,
  statusFilter,
  timeRangeFilter,
} from '../../../components/list-page/index.ts';
import { topUpsApi } from '../api/get-top-ups.ts';
import { ScreenshotThumb } from '../components/screenshot-thumb.tsx';

/** A top-up's review status (DESIGN section 4): `status.<value>` of the top-up texts. */
const TOP_UP_STATUS: StatusTag = {
  labels: 'status',
  colors: { pending_review: 'processing', approved: 'success', rejected: 'error' },
};

/** Long texts cut to the column's width, whole in a tooltip. */
const clipped = (text: string | null, maxWidth: number) =>
  text ? (
    <Typography.Text ellipsis={{ tooltip: text }} style={{ maxWidth }}>
      {text}
    </Typography.Text>
  ) : (
    '-'
  );

/** The USDT submitted, what an approval credited in local currency and in USD: columns and drawer alike. */
const USDT_AMOUNT = { kind: 'money', field: 'amount', currency: { code: 'USDT' } } as const;
const CREDITED = {
  kind: 'money',
  field: 'credited_amount',
  currency: { field: 'credited_currency' },
} as const;
const CREDITED_USD = { kind: 'money', field: 'credited_usd', currency: { code: 'USD' } } as const;

/** Top-ups > Top-up history: the merchant's top-ups, their review and what each credited. */
export default declaredListPage({
  name: 'top-up',
  namespace: 'top-ups',
  title: 'routes:topUpRecord',
  query: TopUpListQuerySchema,
  api: topUpsApi,
  rowKey: 'recharge_no',
  columns: [
    { key: 'topUpNo', title: 'columns.topUpNo', kind: 'text', field: 'recharge_no' },
    { key: 'currency', title: 'columns.currency', kind: 'text', field: 'currency' },
    { key: 'network', title: 'columns.network', kind: 'text', field: 'network' },
    { key: 'address', title: 'columns.address', kind: 'custom', render: (row) => clipped(row.address, 160) },
    { key: 'amount', title: 'columns.amount', ...USDT_AMOUNT },
    // What an approval gave: the local value of the USDT received, at its rate.
    { key: 'credited', title: 'columns.credited', ...CREDITED },
    { key: 'creditedUsd', title: 'columns.creditedUsd', ...CREDITED_USD },
    { key: 'rate', title: 'columns.rate', kind: 'text', field: 'rate', align: 'right' },
    {
      key: 'screenshot',
      title: 'columns.screenshot',
      kind: 'custom',
      render: (row) => <ScreenshotThumb topUpNo={row.recharge_no} />,
    },
    statusColumn(TOP_UP_STATUS),
    { key: 'reason', title: 'columns.reason', kind: 'custom', render: (row) => clipped(row.reason, 180) },
    { key: 'createdAt', title: 'columns.createdAt', kind: 'time', field: 'created_at' },
  ],
  filters: [
    {
      kind: 'text',
      name: 'recharge_no',
      label: 'columns.topUpNo',
      placeholder: 'filters.topUpNo',
      width: 260,
    },
    statusFilter(TOP_UP_STATUSES),
    {
      kind: 'select',
      name: 'network',
      label: 'columns.network',
      placeholder: 'filters.network',
      options: TOP_UP_NETWORKS,
    },
    timeRangeFilter(),
  ],
  // The whole filter's figures: USDT submitted, how many, and what was credited in the merchant's currency.
  sums: [
    { key: 'amount', label: 'sums.amount', ...USDT_AMOUNT },
    { key: 'count', label: 'sums.count', kind: 'count', field: 'count' },
    { key: 'credited', label: 'sums.credited', kind: 'money', field: 'credited' },
  ],
  export: 'recharges',
  // The list's rows carry every field: the drawer shows the row, its review and its screenshot.
  detail: {
    title: { param: 'no' },
    alerts: [
      {
        type: 'error',
        title: 'detail.rejected',
        field: 'reason',
        when: (row) => row.status === 'rejected',
        testId: 'top-up-rejected',
      },
      { type: 'info', title: 'detail.pending', when: (row) => row.status === 'pending_review' },
    ],
    fields: [
      { key: 'topUpNo', label: 'columns.topUpNo', kind: 'text', field: 'recharge_no', copyable: true },
      { key: 'status', label: 'columns.status', kind: 'status', field: 'status', ...TOP_UP_STATUS },
      { key: 'currency', label: 'columns.currency', kind: 'text', field: 'currency' },
      { key: 'network', label: 'columns.network', kind: 'text', field: 'network' },
      { key: 'address', label: 'columns.address', kind: 'text', field: 'address', copyable: true },
      { key: 'amount', label: 'columns.amount', ...USDT_AMOUNT },
      {
        key: 'received',
        label: 'columns.received',
        kind: 'money',
        field: 'received_amount',
        currency: { code: 'USDT' },
      },
      { key: 'rate', label: 'columns.rate', kind: 'text', field: 'rate' },
      { key: 'credited', label: 'columns.credited', ...CREDITED },
      { key: 'creditedUsd', label: 'columns.creditedUsd', ...CREDITED_USD },
      { key: 'reason', label: 'columns.reason', kind: 'text', field: 'reason' },
      { key: 'createdAt', label: 'columns.createdAt', kind: 'time', field: 'created_at' },
      { key: 'reviewedAt', label: 'columns.reviewedAt', kind: 'time', field: 'reviewed_at' },
      {
        key: 'screenshot',
        label: 'columns.screenshot',
        kind: 'custom',
        render: (row) => <ScreenshotThumb topUpNo={row.recharge_no} size={200} whole />,
      },
    ],
  },
});
