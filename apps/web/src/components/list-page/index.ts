export { declaredListPage } from './declared-list-page.tsx';
export { renderCell } from './cells.tsx';
export type {
  Cell,
  CellContext,
  ColumnDeclaration,
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
  orderColumns,
  orderFields,
  orderFilters,
  orderSections,
  statusColumn,
  statusFilter,
  timelineSection,
  timeRangeFilter,
} from './presets.ts';
