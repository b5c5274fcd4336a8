import {
  SettlementListQuerySchema,
  SettlementListResponseSchema,
} from '@paydesk/shared/collections/collections.schemas.ts';
import { settlements } from '../../db/schema/index.ts';
import { columnsFor, defineList, listRollup, TITLE, titles } from '../lists/index.ts';
import { presentSettlement } from './settlements.service.ts';

const col = columnsFor(settlements);

/** Receive money > Settlements: sums of gross, fee and net from list_hourly, by channel. */
export const settlementsList = defineList({
  path: '/api/merchant/settlements',
  perm: 'collection:view',
  query: SettlementListQuerySchema,
  response: SettlementListResponseSchema,
  table: settlements,
  filters: { settlementNo: 'settlement_no', channel: { column: settlements.channelCode, query: 'channel' } },
  numbers: ['settlementNo'],
  sums: { grossMinor: 'gross', feeMinor: 'fee', netMinor: 'net' },
  rollup: listRollup('settlement', { facet: 'channel', a: 'grossMinor', b: 'feeMinor', c: 'netMinor' }),
  view: (row) => presentSettlement(row),
  export: {
    kind: 'settlements',
    title: titles('Settlements', '结算记录', 'Quyết toán'),
    columns: [
      col.text(titles('Settlement number', '结算单号', 'Mã quyết toán'), (r) => r.settlementNo),
      col.text(TITLE.channel, (r) => r.channelCode),
      col.text(titles('Cycle', '结算周期', 'Chu kỳ'), (r) => r.cycle),
      col.text(titles('Business date', '业务日期', 'Ngày nghiệp vụ'), (r) => r.businessDate),
      col.integer(titles('Orders', '订单数', 'Số đơn'), (r) => r.orderCount),
      col.amount(titles('Gross amount', '结算总额', 'Tổng số tiền'), (r) => r.grossMinor),
      col.amount(TITLE.serviceFee, (r) => r.feeMinor),
      col.amount(titles('Net amount', '结算净额', 'Số tiền thực nhận'), (r) => r.netMinor),
      col.text(TITLE.currency, (r) => r.currency),
      col.time(TITLE.settled, (r) => r.settledAt ?? r.createdAt),
    ],
  },
});
