import {
  FUND_FLOW_TYPES,
  FundFlowListQuerySchema,
  POSTED_TYPE_SIGN,
} from '@paydesk/shared/funds/funds.schemas.ts';
import { column, declaredListPage, filter, statusTag, sum } from '../../../components/list-page/index.ts';
import { MoneyText } from '../../../components/money-text.tsx';
import { fundFlowsApi } from '../api/get-fund-flows.ts';

const MONEY_IN = new Set<string>([
  ...Object.entries(POSTED_TYPE_SIGN)
    .filter(([, sign]) => sign > 0)
    .map(([type]) => type),
  'withdrawal_rejected',
  'funds_unfrozen',
  // A failed refund of a collection gives its hold back (DESIGN 14).
  'refund_reversal',
]);

/** The type's label in the console's language, green for money in, orange for money out. */
const FUND_FLOW_TYPE = statusTag(
  Object.fromEntries(FUND_FLOW_TYPES.map((type) => [type, MONEY_IN.has(type) ? 'green' : 'orange'])),
  'types',
);

/** Funds > Transactions: every movement of the merchant's available balance, newest first. */
export default declaredListPage({
  name: 'fund-flow',
  namespace: 'funds',
  title: 'routes:fundWater',
  query: FundFlowListQuerySchema,
  api: fundFlowsApi,
  rowKey: 'id',
  columns: [
    { key: 'type', title: 'columns.type', kind: 'status', field: 'type', ...FUND_FLOW_TYPE },
    column.money('amount', 'amount', { signed: true }),
    column.money('availableAfter', 'available_after'),
    column.text('refNo', 'ref_no'),
    column.text('note', 'note'),
    column.time('time', 'created_at'),
  ],
  filters: [
    filter.select('type', 'type', FUND_FLOW_TYPES, { labels: 'types', width: 240 }),
    filter.timeRange(),
    filter.text('ref_no', 'refNo', 260),
  ],
  // Money in, money out and the number of transactions of the whole filter, not just this page.
  sums: [
    sum.money('moneyIn', 'money_in', { signed: true }),
    {
      key: 'moneyOut',
      label: 'sums.moneyOut',
      kind: 'custom',
      // Money out is shown as out, whether the server signs it or not.
      render: ({ money_out: out }, { merchantCurrency }) => (
        <MoneyText
          value={out.startsWith('-') ? out : `-${out}`}
          currency={merchantCurrency}
          signed
          unit="code"
        />
      ),
    },
    sum.count('entries', 'total'),
  ],
  export: 'fund_flows',
  detail: {
    title: { param: 'id' },
    fields: [
      { key: 'id', label: 'detail.id', kind: 'text', field: 'id' },
      'type',
      'amount',
      'availableAfter',
      {
        key: 'refType',
        label: 'detail.refType',
        kind: 'custom',
        render: (entry, { t }) => t(`detail.refTypes.${entry.ref_type}`, { defaultValue: entry.ref_type }),
      },
      'refNo',
      'note',
      'time',
    ],
  },
});
