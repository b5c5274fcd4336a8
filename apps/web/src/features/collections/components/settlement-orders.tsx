import { Pagination } from 'antd';
import { useState } from 'react';
import type { Collection } from '@paydesk/shared/collections/collections.schemas.ts';
import { type CellContext, type ListColumn, renderCell } from '../../../components/list-page/index.ts';

import { Table } from '../../../components/table.tsx';
import { COLLECTION_STATUS } from './statuses.ts';

const ORDERS_PER_PAGE = 20;

/** The orders a settlement batch settled, 20 to a page (its drawer's last section). */
export function SettlementOrders({ orders, context }: { orders: Collection[]; context: CellContext }) {
  const { t } = context;
  const [page, setPage] = useState(1);
  const money = (field: 'amount' | 'fee') => (row: Collection) =>
    renderCell({ kind: 'money', field, unit: 'none' }, row, context);
  const columns: ListColumn<Collection>[] = [
    { key: 'tradeNo', title: t('columns.tradeNo'), render: (row) => row.trade_no },
    { key: 'outTradeNo', title: t('columns.outTradeNo'), render: (row) => row.out_trade_no },
    { key: 'amount', title: t('columns.amount'), align: 'right', render: money('amount') },
    { key: 'fee', title: t('columns.fee'), align: 'right', render: money('fee') },
    {
      key: 'status',
      title: t('columns.status'),
      render: (row) => renderCell({ kind: 'status', field: 'status', ...COLLECTION_STATUS }, row, context),
    },
    {
      key: 'paidAt',
      title: t('columns.paidAt'),
      render: (row) => renderCell({ kind: 'time', field: 'paid_at' }, row, context),
    },
  ];
  return (
    <>
      <Table<Collection>
        size="small"
        rowKey="trade_no"
        aria-label={t('settlements.detail.orders')}
        rows={orders.slice((page - 1) * ORDERS_PER_PAGE, page * ORDERS_PER_PAGE)}
        empty={t('settlements.detail.noOrders')}
        columns={columns}
      />
      {orders.length > ORDERS_PER_PAGE && (
        <Pagination
          className="data-table__pagination"
          align="end"
          size="small"
          current={page}
          pageSize={ORDERS_PER_PAGE}
          total={orders.length}
          showSizeChanger={false}
          onChange={setPage}
        />
      )}
    </>
  );
}
