import {
  FUND_FLOW_TYPES,
  FundFlowListQuerySchema,
  POSTED_TYPE_SIGN,
} from '@paydesk/shared/funds/funds.schemas.ts';
import { declaredListPage, type StatusTag, timeRangeFilter } from '../../../components/list-page/index.ts';
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
const FUND_FLOW_TYPE: StatusTag = {
  labels: 'types',
  colors: Object.fromEntries(FUND_FLOW_TYPES.map((type) => [type, MONEY_IN.has(type) ? 'green' : 'orange'])),
};

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
    { key: 'amount', title: 'columns.amount', kind: 'money', field: 'amount', signed: true },
    { key: 'availableAfter', title: 'columns.availableAfter', kind: 'money', field: 'available_after' },
    { key: 'refNo', title: 'columns.refNo', kind: 'text', field: 'ref_no' },
    { key: 'note', title: 'columns.note', kind: 'text', field: 'note' },
    { key: 'time', title: 'columns.time', kind: 'time', field: 'created_at' },
  ],
  filters: [
    {
      kind: 'select',
      name: 'type',
      label: 'columns.type',
      placeholder: 'filters.type',
      width: 240,
      options: FUND_FLOW_TYPES,
      labels: 'types',
    },
    timeRangeFilter(),
    { kind: 'text', name: 'ref_no', label: 'columns.refNo', placeholder: 'filters.refNo', width: 260 },
  ],
  // Money in, money out and the number of transactions of the whole filter, not just this page.
  sums: [
    { key: 'moneyIn', label: 'sums.moneyIn', kind: 'money', field: 'money_in', signed: true },
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
    { key: 'entries', label: 'sums.entries', kind: 'count', field: 'total' },
  ],
  export: 'fund_flows',
  detail: {
    title: { param: 'id' },
    fields: [
      { key: 'id', label: 'detail.id', kind: 'text', field: 'id' },
      { key: 'type', label: 'columns.type', kind: 'status', field: 'type', ...FUND_FLOW_TYPE },
      {
        key: 'amount',
        label: 'columns.amount',
        kind: 'money',
        field: 'amount',

        signed: true,
      },
      {
        key: 'after',
        label: 'columns.availableAfter',
        kind: 'money',
        field: 'available_after',
      },
      {
        key: 'refType',
        label: 'detail.refType',
        kind: 'custom',
        render: (entry, { t }) => t(`detail.refTypes.${entry.ref_type}`, { defaultValue: entry.ref_type }),
      },
      { key: 'refNo', label: 'columns.refNo', kind: 'text', field: 'ref_no' },
      { key: 'note', label: 'columns.note', kind: 'text', field: 'note' },
      { key: 'time', label: 'columns.time', kind: 'time', field: 'created_at' },
    ],
  },
});
