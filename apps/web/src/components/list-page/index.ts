export { ListPage, type ListPageProps } from './list-page.tsx';
export type { FilterField, ListColumn, ListFilterSchema, ListResponse, ListSum } from './types.ts';
