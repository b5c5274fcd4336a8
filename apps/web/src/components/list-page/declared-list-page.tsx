import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import type { Currency } from '@paydesk/shared/money.ts';
// The one feature the list kit uses: every declared list's Export button (an export of the list's filters).
// eslint-disable-next-line no-restricted-imports -- through the exports feature's door, on purpose
import { ExportButton } from '../../features/exports/index.ts';
import { useCurrentUser } from '../../lib/auth/get-current-user.ts';
import { useTimeZone } from '../date-time.tsx';
import { alignOf, renderCell, wordsOf } from './cells.tsx';
import type {
  CellContext,
  ColumnDeclaration,
  DetailDeclaration,
  DrawerField,
  ListDeclaration,
  ListDetailDeclaration,
  SumRow,
} from './declaration.ts';
import { DetailDrawer } from './detail-drawer.tsx';
import { ListPage } from './list-page.tsx';
import type { FilterField, ListFilterSchema, ListResponse } from './types.ts';

/**
 * The page of a declared list (declaration.ts): its columns, filters, sums, drawer and Export button, in the
 * texts of its namespace. A page file is `export default declaredListPage({ ... })`.
 */
export function declaredListPage<
  Schema extends ListFilterSchema,
  Response extends ListResponse<object>,
  Detail = Response['data'][number],
>(list: ListDeclaration<Schema, Response, Detail>): ComponentType {
  type Row = Response['data'][number];
  // Read once, as the page's module loads: a drawer that names a column the list lacks fails at once.
  const detail = list.detail && withColumnFields(list.detail, list.columns, list.name);
  function DeclaredListPage() {
    const { t } = useTranslation([list.namespace, 'routes']);
    const empty = list.empty ?? 'empty';
    const context: CellContext = {
      t,
      // Each row carries its currency where it differs; the sums do not, and a merchant has one currency.
      merchantCurrency: (useCurrentUser()?.merchant.currency ?? 'CNY') as Currency,
      timeZone: useTimeZone(),
    };
    const filterFields = (list.filters ?? []).map((filter): FilterField<string> => {
      if (filter.kind === 'text')
        return { ...filter, label: t(filter.label), placeholder: t(filter.placeholder) };
      if (filter.kind === 'select') {
        const { labels, options, ...field } = filter;
        return {
          ...field,
          label: t(filter.label),
          placeholder: t(filter.placeholder),
          options: options.map((value) => ({ value, label: labels ? t(`${labels}.${value}`) : value })),
        };
      }
      return {
        ...filter,
        label: t(filter.label),
        placeholder: [t(filter.placeholder[0]), t(filter.placeholder[1])],
      };
    });
    return (
      <ListPage<Row, Schema, Response>
        title={t(list.title)}
        name={list.name}
        filters={list.query}
        useList={list.api.useList}
        rowKey={list.rowKey}
        size={list.size}
        columns={list.columns.map((column) => ({
          key: column.key,
          title: wordsOf(column.title, context, undefined as never),
          align: column.align ?? alignOf(column),
          width: column.width,
          render: (row: Row) => renderCell(column, row, context),
        }))}
        filterFields={filterFields as FilterField<never>[]}
        sums={list.sums?.map((sum) => ({
          key: sum.key,
          label: t(sum.label),
          render: (meta: Response['meta']) =>
            renderCell(sum, { ...meta, ...meta.sums } as SumRow<Response['meta']>, context),
        }))}
        empty={{
          none: t(`${empty}.none`),
          // A list without filters (the exports) has no text for a filtered list.
          filtered: t(list.filters?.length ? `${empty}.filtered` : `${empty}.none`),
        }}
        detail={
          detail && {
            actionLabel: t('detail.open'),
            render: (row, close) => (
              <DetailDrawer<Row, Detail>
                declaration={detail}
                row={row}
                rowKey={list.rowKey}
                name={list.name}
                api={list.api}
                context={context}
                onClose={close}
              />
            ),
          }
        }
        renderExport={list.export && ((filters) => <ExportButton kind={list.export!} filters={filters} />)}
      />
    );
  }
  return DeclaredListPage;
}

/** The drawer's declaration with each field that names a column (ColumnField) as that column shows it. */
function withColumnFields<Row, Detail>(
  { fields, ...detail }: ListDetailDeclaration<Detail>,
  columns: ColumnDeclaration<Row>[],
  name: string,
): DetailDeclaration<Detail> {
  return {
    ...detail,
    fields: fields.map((field) => {
      if (typeof field === 'object' && !('column' in field)) return field;
      const { column: key, ...options } = typeof field === 'string' ? { column: field } : field;
      const column = columns.find((candidate) => candidate.key === key);
      if (!column) throw new Error(`The ${name} list's drawer names a column it does not have: ${key}.`);
      const { title, width: _width, align: _align, ...cell } = column;
      // The detail has the row's fields: the column's cell draws it alike.
      return { ...cell, label: title, ...options } as unknown as DrawerField<Detail>;
    }),
  };
}
