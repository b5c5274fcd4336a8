import {
  SettlementListQuerySchema,
  SettlementListResponseSchema,
} from '@paydesk/shared/collections/collections.schemas.ts';
import { settlements } from '../../db/schema/index.ts';
import { defineList, listRollup } from '../lists/index.ts';
import { presentSettlement } from './settlements.service.ts';

/** Receive money > Settlements: sums of gross, fee and net from list_hourly, by channel. */
export const settlementsList = defineList({
  path: '/api/merchant/settlements',
  perm: 'collection:view',
  query: SettlementListQuerySchema,
  response: SettlementListResponseSchema,
  table: settlements,
  filters: {
    settlementNo: { column: settlements.settlementNo, query: 'settlement_no' },
    channel: { column: settlements.channelCode, query: 'channel' },
  },
  numbers: ['settlementNo'],
  sums: {
    grossMinor: { name: 'gross', of: (r) => r.grossMinor, sql: settlements.grossMinor },
    feeMinor: { name: 'fee', of: (r) => r.feeMinor, sql: settlements.feeMinor },
    netMinor: { name: 'net', of: (r) => r.netMinor, sql: settlements.netMinor },
  },
  rollup: listRollup('settlement', { facet: 'channel', a: 'grossMinor', b: 'feeMinor', c: 'netMinor' }),
  view: (row) => presentSettlement(row),
  export: {
    kind: 'settlements',
    title: { en: 'Settlements', 'zh-cn': '结算记录', vi: 'Quyết toán' },
    columns: [
      {
        title: { en: 'Settlement number', 'zh-cn': '结算单号', vi: 'Mã quyết toán' },
        type: 'text',
        value: (r) => r.settlementNo,
      },
      { title: { en: 'Channel', 'zh-cn': '通道', vi: 'Kênh' }, type: 'text', value: (r) => r.channelCode },
      { title: { en: 'Cycle', 'zh-cn': '结算周期', vi: 'Chu kỳ' }, type: 'text', value: (r) => r.cycle },
      {
        title: { en: 'Business date', 'zh-cn': '业务日期', vi: 'Ngày nghiệp vụ' },
        type: 'text',
        value: (r) => r.businessDate,
      },
      {
        title: { en: 'Orders', 'zh-cn': '订单数', vi: 'Số đơn' },
        type: 'integer',
        value: (r) => String(r.orderCount),
      },
      {
        title: { en: 'Gross amount', 'zh-cn': '结算总额', vi: 'Tổng số tiền' },
        type: 'amount',
        value: (r, f) => f.amount(r.grossMinor),
      },
      {
        title: { en: 'Service fee', 'zh-cn': '手续费', vi: 'Phí dịch vụ' },
        type: 'amount',
        value: (r, f) => f.amount(r.feeMinor),
      },
      {
        title: { en: 'Net amount', 'zh-cn': '结算净额', vi: 'Số tiền thực nhận' },
        type: 'amount',
        value: (r, f) => f.amount(r.netMinor),
      },
      { title: { en: 'Currency', 'zh-cn': '币种', vi: 'Tiền tệ' }, type: 'text', value: (r) => r.currency },
      {
        title: { en: 'Settled', 'zh-cn': '结算时间', vi: 'Thời gian quyết toán' },
        type: 'text',
        value: (r, f) => f.time(r.settledAt ?? r.createdAt),
      },
    ],
  },
});
