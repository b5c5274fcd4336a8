export { declaredListPage } from './declared-list-page.tsx';
export { renderCell } from './cells.tsx';
export type {
  Cell,
  CellContext,
  ColumnDeclaration,
  ColumnField,
  DetailDeclaration,
  DrawerField,
  FilterDeclaration,
  ListDeclaration,
  StatusTag,
  SumDeclaration,
} from './declaration.ts';
export { listApi, type ListApi, type ListId } from './list-api.ts';
export { ListPage, type ListPageProps } from './list-page.tsx';
export type { FilterField, ListColumn, ListFilterSchema, ListResponse, ListSum } from './types.ts';
export {
  amountCountFeeSums,
  column,
  filter,
  orderColumns,
  orderDetail,
  orderFields,
  orderFilters,
  orderList,
  orderSections,
  statusTag,
  sum,
  timelineSection,
} from './presets.ts';
