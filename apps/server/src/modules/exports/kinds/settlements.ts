import { SettlementListQuerySchema } from '@paydesk/shared/collections/collections.schemas.ts';
import { settlements } from '../../../db/schema/index.ts';
import { localRangeToUtc } from '../../../lib/timezone.ts';
import { settlementsPage, settlementsTotals } from '../../collections/index.ts';
import { exportsRepository } from '../exports.repository.ts';
import { defineExportKind } from './export-kind.ts';

/** Receive money > Settlements (GET /api/merchant/settlements): sums gross, fee and net as the list does. */
export const settlementsExport = defineExportKind({
  kind: 'settlements',
  title: { en: 'Settlements', 'zh-cn': '结算记录', vi: 'Quyết toán' },
  perm: 'collection:view',
  query: SettlementListQuerySchema,
  filter: (query, { merchantId, timeZone }) => ({
    merchantId,
    settlementNo: query.settlement_no,
    channel: query.channel,
    ...localRangeToUtc(query.start_time, query.end_time, timeZone),
  }),
  maxId: (db) => exportsRepository.maxIdOf(db, settlements),
  count: async (db, filter) => (await settlementsTotals(db, filter)).count,
  rows: (db, filter, maxId, limit, after) =>
    settlementsPage(db, { ...filter, maxId }, limit, { cursor: after, offset: 0 }),
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
  sums: { gross: (r) => r.grossMinor, fee: (r) => r.feeMinor, net: (r) => r.netMinor },
});
