import { Descriptions, Divider, Drawer, Pagination, Skeleton, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Collection } from '@paydesk/shared/collections/collections.schemas.ts';
import type { Currency } from '@paydesk/shared/money.ts';
import { DateTime } from '../../../components/date-time.tsx';
import { MoneyText } from '../../../components/money-text.tsx';
import { Table } from '../../../components/table.tsx';
import { useSettlement } from '../api/get-settlement.ts';
import { CollectionStatusTag } from './collection-status-tag.tsx';
import { settlementCycleLabel } from './settlement-cycle.ts';

/** One settlement batch (GET /api/merchant/settlements/{settlement_no}) and the orders it settled. */
export function SettlementDetailDrawer({
  settlementNo,
  onClose,
}: {
  settlementNo: string | undefined;
  onClose: () => void;
}) {
  const { t } = useTranslation('collection');
  const { data: batch, isLoading } = useSettlement(settlementNo);
  const currency = batch?.currency as Currency;
  return (
    <Drawer
      open={settlementNo !== undefined}
      onClose={onClose}
      title={t('settlements.detail.title', { settlementNo: settlementNo ?? '' })}
      size="large"
    >
      {isLoading || !batch ? (
        <Skeleton active />
      ) : (
        <>
          <Descriptions
            column={1}
            bordered
            size="small"
            items={[
              {
                key: 'settlementNo',
                label: t('settlements.columns.settlementNo'),
                children: <Typography.Text copyable>{batch.settlement_no}</Typography.Text>,
              },
              { key: 'channel', label: t('settlements.columns.channel'), children: batch.channel },
              {
                key: 'cycle',
                label: t('settlements.columns.cycle'),
                children: settlementCycleLabel(batch.cycle),
              },
              {
                key: 'businessDate',
                label: t('settlements.columns.businessDate'),
                children: batch.business_date,
              },
              { key: 'orderCount', label: t('settlements.columns.orderCount'), children: batch.order_count },
              {
                key: 'gross',
                label: t('settlements.columns.gross'),
                children: <MoneyText value={batch.gross} currency={currency} unit="code" />,
              },
              {
                key: 'fee',
                label: t('settlements.columns.fee'),
                children: <MoneyText value={batch.fee} currency={currency} unit="code" />,
              },
              {
                key: 'net',
                label: t('settlements.columns.net'),
                children: <MoneyText value={batch.net} currency={currency} unit="code" />,
              },
              {
                key: 'settledAt',
                label: t('settlements.columns.settledAt'),
                children: <DateTime value={batch.settled_at} />,
              },
            ]}
          />
          <Divider />
          <Typography.Title level={5}>{t('settlements.detail.orders')}</Typography.Title>
          <SettlementOrders key={batch.settlement_no} orders={batch.orders} />
        </>
      )}
    </Drawer>
  );
}

const ORDERS_PER_PAGE = 20;

/** The orders a batch settled, 20 to a page. */
function SettlementOrders({ orders }: { orders: Collection[] }) {
  const { t } = useTranslation('collection');
  const [page, setPage] = useState(1);
  return (
    <>
      <Table<Collection>
        size="small"
        rowKey="trade_no"
        aria-label={t('settlements.detail.orders')}
        rows={orders.slice((page - 1) * ORDERS_PER_PAGE, page * ORDERS_PER_PAGE)}
        empty={t('settlements.detail.noOrders')}
        columns={[
          { key: 'tradeNo', title: t('columns.tradeNo'), render: (row) => row.trade_no },
          { key: 'outTradeNo', title: t('columns.outTradeNo'), render: (row) => row.out_trade_no },
          {
            key: 'amount',
            title: t('columns.amount'),
            align: 'right',
            render: (row) => <MoneyText value={row.amount} currency={row.currency} />,
          },
          {
            key: 'fee',
            title: t('columns.fee'),
            align: 'right',
            render: (row) => <MoneyText value={row.fee} currency={row.currency} />,
          },
          {
            key: 'status',
            title: t('columns.status'),
            render: (row) => <CollectionStatusTag status={row.status} />,
          },
          {
            key: 'paidAt',
            title: t('columns.paidAt'),
            render: (row) => <DateTime value={row.paid_at} />,
          },
        ]}
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
