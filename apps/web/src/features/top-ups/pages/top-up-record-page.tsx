import { Typography } from 'antd';
import {
  TOP_UP_NETWORKS,
  TOP_UP_STATUSES,
  TopUpListQuerySchema,
} from '@paydesk/shared/top-ups/top-ups.schemas.ts';
import { column, declaredListPage, filter, statusTag, sum } from '../../../components/list-page/index.ts';
import { topUpsApi } from '../api/get-top-ups.ts';
import { ScreenshotThumb } from '../components/screenshot-thumb.tsx';

/** A top-up's review status (DESIGN section 4): `status.<value>` of the top-up texts. */
const TOP_UP_STATUS = statusTag({ pending_review: 'processing', approved: 'success', rejected: 'error' });

/** Long texts cut to the column's width, whole in a tooltip. */
const clipped = (text: string | null, maxWidth: number) =>
  text ? (
    <Typography.Text ellipsis={{ tooltip: text }} style={{ maxWidth }}>
      {text}
    </Typography.Text>
  ) : (
    '-'
  );

/** Top-ups > Top-up history: the merchant's top-ups, their review and what each credited. */
export default declaredListPage({
  name: 'top-up',
  namespace: 'top-ups',
  title: 'routes:topUpRecord',
  query: TopUpListQuerySchema,
  api: topUpsApi,
  rowKey: 'recharge_no',
  columns: [
    column.text('topUpNo', 'recharge_no'),
    column.text('currency', 'currency'),
    column.text('network', 'network'),
    { key: 'address', title: 'columns.address', kind: 'custom', render: (row) => clipped(row.address, 160) },
    column.money('amount', 'amount', { currency: { code: 'USDT' } }),
    // What an approval gave: the local value of the USDT received, at its rate.
    column.money('credited', 'credited_amount', { currency: { field: 'credited_currency' } }),
    column.money('creditedUsd', 'credited_usd', { currency: { code: 'USD' } }),
    column.text('rate', 'rate', { align: 'right' }),
    {
      key: 'screenshot',
      title: 'columns.screenshot',
      kind: 'custom',
      render: (row) => <ScreenshotThumb topUpNo={row.recharge_no} />,
    },
    column.status(TOP_UP_STATUS),
    { key: 'reason', title: 'columns.reason', kind: 'custom', render: (row) => clipped(row.reason, 180) },
    column.time('createdAt', 'created_at'),
  ],
  filters: [
    filter.text('recharge_no', 'topUpNo', 260),
    filter.status(TOP_UP_STATUSES),
    filter.select('network', 'network', TOP_UP_NETWORKS),
    filter.timeRange(),
  ],
  // The whole filter's figures: USDT submitted, how many, and what was credited in the merchant's currency.
  sums: [
    sum.money('amount', 'amount', { currency: { code: 'USDT' } }),
    sum.count('count', 'count'),
    sum.money('credited', 'credited'),
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
      { column: 'topUpNo', copyable: true },
      'status',
      'currency',
      'network',
      { key: 'address', label: 'columns.address', kind: 'text', field: 'address', copyable: true },
      'amount',
      {
        key: 'received',
        label: 'columns.received',
        kind: 'money',
        field: 'received_amount',
        currency: { code: 'USDT' },
      },
      'rate',
      'credited',
      'creditedUsd',
      { key: 'reason', label: 'columns.reason', kind: 'text', field: 'reason' },
      'createdAt',
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
