import { Button, Card, Empty, type TableProps } from 'antd';
import { useCallback, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type FundFlow, FundFlowListQuerySchema } from '@paydesk/shared/funds/funds.schemas.ts';
import type { Currency } from '@paydesk/shared/money.ts';
import { DataTable } from '../../../components/data-table.tsx';
import { DateTime } from '../../../components/date-time.tsx';
import { MoneyText } from '../../../components/money-text.tsx';
import { PageContainer } from '../../../components/page-container.tsx';
import { useUrlFilters } from '../../../components/use-url-filters.ts';
import { useCurrentUser } from '../../../lib/auth/get-current-user.ts';
import { useFundFlows } from '../api/get-fund-flows.ts';
import { FundFlowDetailDrawer } from '../components/fund-flow-detail-drawer.tsx';
import { type FundFlowFilterPatch, FundFlowFilters } from '../components/fund-flow-filters.tsx';
import { FundFlowSums } from '../components/fund-flow-sums.tsx';
import { FundFlowTypeTag } from '../components/fund-flow-type-tag.tsx';

/** Funds > Transactions: every movement of the merchant's available balance, newest first. */
export default function FundWaterPage() {
  const { t } = useTranslation(['funds', 'routes']);
  const currency = (useCurrentUser()?.merchant.currency ?? 'CNY') as Currency;
  const { filters, setFilters, resetFilters } = useUrlFilters(FundFlowListQuerySchema);
  const { data, isFetching } = useFundFlows(filters);
  const [openId, setOpenId] = useState<number | undefined>(undefined);

  // Paging forward (or back to a page seen before) goes by the position of that page's first row (the
  // server's cursor), so deep pages cost what the first does; a jump to an unseen page goes by number.
  const cursors = useRef(new Map<string, string | undefined>());
  const filterKey = JSON.stringify([
    filters.type,
    filters.start_time,
    filters.end_time,
    filters.ref_no,
    filters.per_page,
  ]);
  const onPageChange = useCallback(
    (page: number, perPage: number) => {
      if (perPage !== filters.per_page) return setFilters({ page: 1, per_page: perPage, cursor: undefined });
      const pageKey = `${filterKey}:${page}`;
      if (page === filters.page + 1 && data?.meta.next_cursor && !cursors.current.has(pageKey)) {
        cursors.current.set(pageKey, data.meta.next_cursor);
      }
      if (filters.cursor) cursors.current.set(`${filterKey}:${filters.page}`, filters.cursor);
      setFilters({ page, cursor: page === 1 ? undefined : cursors.current.get(pageKey) });
    },
    [data, filterKey, filters.cursor, filters.page, filters.per_page, setFilters],
  );
  const onSearch = (patch: FundFlowFilterPatch) => setFilters({ ...patch, cursor: undefined });

  const isFiltered = Boolean(filters.type || filters.start_time || filters.end_time || filters.ref_no);
  const columns: TableProps<FundFlow>['columns'] = [
    {
      key: 'type',
      title: t('columns.type'),
      dataIndex: 'type',
      render: (_, row) => <FundFlowTypeTag type={row.type} />,
    },
    {
      key: 'amount',
      title: t('columns.amount'),
      align: 'right',
      render: (_, row) => <MoneyText value={row.amount} currency={currency} signed unit="code" />,
    },
    {
      key: 'availableAfter',
      title: t('columns.availableAfter'),
      align: 'right',
      render: (_, row) => <MoneyText value={row.available_after} currency={currency} unit="code" />,
    },
    { key: 'refNo', title: t('columns.refNo'), render: (_, row) => row.ref_no ?? '-' },
    { key: 'note', title: t('columns.note'), render: (_, row) => row.note ?? '-' },
    { key: 'time', title: t('columns.time'), render: (_, row) => <DateTime value={row.created_at} /> },
    {
      key: 'actions',
      title: '',
      render: (_, row) => (
        <Button type="link" size="small" onClick={() => setOpenId(row.id)}>
          {t('detail.open')}
        </Button>
      ),
    },
  ];

  return (
    <PageContainer title={t('routes:fundWater')}>
      <Card>
        <FundFlowFilters filters={filters} onSearch={onSearch} onReset={resetFilters} />
        <FundFlowSums meta={data?.meta} currency={currency} />
        <DataTable<FundFlow>
          rowKey="id"
          aria-label={t('routes:fundWater')}
          columns={columns}
          result={data}
          loading={isFetching}
          page={filters.page}
          perPage={filters.per_page}
          onPageChange={onPageChange}
          locale={{
            emptyText: (
              <Empty
                image={Empty.PRESENTED_IMAGE_SIMPLE}
                description={isFiltered ? t('empty.filtered') : t('empty.none')}
              />
            ),
          }}
        />
      </Card>
      <FundFlowDetailDrawer id={openId} onClose={() => setOpenId(undefined)} />
    </PageContainer>
  );
}
