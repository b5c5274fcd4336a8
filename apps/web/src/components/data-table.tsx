import { Pagination } from 'antd';
import type { ComponentProps } from 'react';
import { useTranslation } from 'react-i18next';
import type { ListMeta } from '@paydesk/shared/pagination.ts';
import { Table } from './table.tsx';

/** A page of rows and what the pager needs of its meta (a list's sums are its page's business). */
export type ListResult<T> = { data: T[]; meta: Pick<ListMeta, 'total' | 'total_capped'> };

const PAGE_SIZES = [10, 20, 50, 100];

/** A server-paged list: the page and page size come from and go to the URL (useUrlFilters). */
export function DataTable<T>({
  result,
  page,
  perPage,
  onPageChange,
  ...table
}: Omit<ComponentProps<typeof Table<T>>, 'rows'> & {
  result: ListResult<T> | undefined;
  page: number;
  perPage: number;
  onPageChange: (page: number, perPage: number) => void;
}) {
  const { t } = useTranslation('common');
  const meta = result?.meta;
  return (
    <>
      <Table<T> {...table} rows={result?.data ?? []} />
      {meta && meta.total > 0 && (
        <Pagination
          className="data-table__pagination"
          align="end"
          size={table.size === 'small' || table.size === 'middle' ? 'small' : undefined}
          current={page}
          pageSize={perPage}
          total={meta.total}
          showSizeChanger
          pageSizeOptions={PAGE_SIZES}
          showTotal={(total) =>
            meta.total_capped ? t('table.totalCapped', { count: total }) : t('table.total', { count: total })
          }
          onChange={(nextPage, nextSize) => onPageChange(nextSize === perPage ? nextPage : 1, nextSize)}
        />
      )}
    </>
  );
}
