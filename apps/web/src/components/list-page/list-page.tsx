import { Button, Card, Empty, Space, Typography } from 'antd';
import { type ReactNode, useState } from 'react';
import type { z } from 'zod';
import { DataTable } from '../data-table.tsx';
import { PageContainer } from '../page-container.tsx';
import type { TableColumn } from '../table.tsx';
import { useUrlFilters } from '../use-url-filters.ts';
import { ListFilters } from './list-filters.tsx';
import type {
  FilterField,
  ListColumn,
  ListFilterSchema,
  ListQueryHook,
  ListResponse,
  ListSum,
} from './types.ts';
import { useCursorPaging } from './use-cursor-paging.ts';

export type ListPageProps<
  Row extends object,
  Schema extends ListFilterSchema,
  Response extends ListResponse<Row>,
> = {
  title: string;
  /** Names the parts tests find: `<name>-sums`. */
  name: string;
  /** The filters the URL holds, parsed by this shared schema. */
  filters: Schema;
  /** The list's one query hook (features/<area>/api/get-<things>.ts). */
  useList: ListQueryHook<z.output<Schema>, Response>;
  columns: readonly ListColumn<Row>[];
  rowKey: keyof Row & string;
  filterFields?: readonly FilterField<keyof z.output<Schema> & string>[];
  /** The filter's totals above the table. */
  sums?: readonly ListSum<Response['meta']>[];
  empty: { none: string; filtered: string };
  /** The detail drawer: rendered always (row undefined while closed), opened by a link on each row. */
  detail?: { actionLabel: string; render: (row: Row | undefined, close: () => void) => ReactNode };
  /** The Export button (beside the title), given the list's current filters. */
  renderExport?: (filters: z.output<Schema>) => ReactNode;
  /** Tighter cells (12 px by 8) for a list of many columns. */
  size?: 'large' | 'middle';
};

/**
 * A list page from its parts (STYLE.md "The console's list pages"): filters in the URL, the filter bar,
 * sums, the table with cursor paging, loading and empty states, the detail drawer and the Export slot.
 */
export function ListPage<
  Row extends object,
  Schema extends ListFilterSchema,
  Response extends ListResponse<Row>,
>({
  title,
  name,
  filters: schema,
  useList,
  columns,
  rowKey,
  filterFields = [],
  sums = [],
  empty,
  detail,
  renderExport,
  size,
}: ListPageProps<Row, Schema, Response>) {
  const { filters, setFilters, resetFilters } = useUrlFilters(schema);
  const { data, isFetching } = useList(filters);
  const onPageChange = useCursorPaging(filters, data?.meta.next_cursor, setFilters);
  const [openRow, setOpenRow] = useState<Row | undefined>(undefined);

  const filterNames = filterFields.flatMap((field) =>
    field.kind === 'text' || field.kind === 'select' ? [field.name] : [field.from, field.to],
  );
  const isFiltered = filterNames.some((key) => Boolean(filters[key]));

  const tableColumns: TableColumn<Row>[] = [
    ...columns,
    ...(detail
      ? [
          {
            // A key no page's own column uses (the Exports page has an "actions" column of its own).
            key: '__detail',
            // Read by screen readers; the column needs no visible title.
            title: <span className="data-table__hidden-title">{detail.actionLabel}</span>,
            render: (row: Row) => (
              <Button type="link" size="small" onClick={() => setOpenRow(row)}>
                {detail.actionLabel}
              </Button>
            ),
          },
        ]
      : []),
  ];

  return (
    <PageContainer title={title} extra={renderExport?.(filters)}>
      <Card>
        {filterFields.length > 0 && (
          <ListFilters
            fields={filterFields}
            filters={filters}
            onSearch={(patch) => setFilters({ ...patch, cursor: undefined })}
            onReset={resetFilters}
          />
        )}
        {data && sums.length > 0 && (
          <Space size="large" wrap data-testid={`${name}-sums`} style={{ marginBottom: 12 }}>
            {sums.map((sum) => (
              <span key={sum.key}>
                <Typography.Text type="secondary">{sum.label}: </Typography.Text>
                {sum.render(data.meta)}
              </span>
            ))}
          </Space>
        )}
        <DataTable<Row>
          rowKey={rowKey}
          aria-label={title}
          columns={tableColumns}
          result={data}
          loading={isFetching}
          page={filters.page}
          perPage={filters.per_page}
          onPageChange={onPageChange}
          size={size}
          empty={
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description={isFiltered ? empty.filtered : empty.none}
            />
          }
        />
      </Card>
      {detail?.render(openRow, () => setOpenRow(undefined))}
    </PageContainer>
  );
}
