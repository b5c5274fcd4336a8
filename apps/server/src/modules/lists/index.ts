// Lists and their sums (DESIGN 5 and 8): the order-list kit (list-kit.ts: a list is one declaration), the
// keyset page every list reads, and the rollups its sums come from (rollup-sums.ts, order-rollups.ts) with
// the housekeeping that keeps them (folding slots, closing days and minutes).

export {
  defineList,
  type ListDeclaration,
  type ListExport,
  type ListFilter,
  type ListPage,
  type ListRollup,
  listRollup,
  listRoutes,
  type ListSum,
  type ListTotals,
  type OrderList,
  orderRollup,
} from './list-kit.ts';
export {
  type DayFigures,
  type DayRule,
  orderDashboard,
  orderDayFigures,
  presentDayFigures,
  presentDaySeries,
  type SeriesDay,
} from './order-dashboard.ts';
export { TITLE, columnsFor, STATUS_TITLE, titles } from './export-columns.ts';
export {
  insertOrder,
  moveOrderToChannel,
  orderByTradeNo,
  orderColumnsFor,
  orderListParts,
  orderOfMerchant,
  orderOfMerchantTogether,
} from './order-list.ts';
export { listPage, type ListTable, newestFirst, type Position } from './keyset.ts';
export {
  type Bound,
  claimClose,
  closeMinuteRollup,
  horizonMoved,
  openBefore,
  rollupSums,
  setHorizon,
  sumsEq,
  sumsOf,
  sumsRowsWhere,
  sumsValue,
  sumsWithin,
} from './rollup-sums.ts';
export {
  closeOrderMinutes,
  deleteOrdersCounted,
  foldOrderHourlySlots,
  type OrderDayRow,
  orderDaySeries,
  type OrderFilter,
  orderRollupMoves,
  type OrderRollupMoves,
  type OrderTotals,
} from './order-rollups.ts';
