import { RollbackOutlined } from '@ant-design/icons';
import { Alert, Button, Flex, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Currency } from '@paydesk/shared/money.ts';
import type { Refund } from '@paydesk/shared/refunds/refunds.schemas.ts';
import { DateTime } from '../../../components/date-time.tsx';
import { useHasPerm } from '../../../components/has-perm.tsx';
import { MoneyText } from '../../../components/money-text.tsx';
import { Table } from '../../../components/table.tsx';
import { useOrderRefunds } from '../api/get-refunds.ts';
import { refundableOf } from '../refund-amount.ts';
import { RefundForm } from './refund-form.tsx';
import { REFUND_STATUS } from './statuses.ts';

/** The fields of a collection order its refunds section reads. */
export type RefundedOrder = {
  trade_no: string;
  status: string;
  amount: string;
  refunded: string;
  currency: Currency;
};

/**
 * A collection's refunds in its drawer (DESIGN 14): the order's refunds (GET /api/merchant/refunds
 * ?trade_no=...), and for a paid order with something left to refund, to a user with refund:create, the
 * Refund action. Only a paid order has refunds: the others say so and ask nothing.
 */
export function OrderRefunds({ order }: { order: RefundedOrder }) {
  const { t } = useTranslation('refunds');
  const isPaid = order.status === 'paid';
  const canRefund = useHasPerm('refund:create');
  const refunds = useOrderRefunds(order.trade_no, isPaid);
  const [isFormOpen, setFormOpen] = useState(false);
  if (!isPaid) return <Typography.Text type="secondary">{t('order.notPaid')}</Typography.Text>;
  const refundable = refundableOf(order);
  const hasRefundable = /[1-9]/.test(refundable);
  return (
    <section data-testid="order-refunds">
      {canRefund && (
        <Flex justify="space-between" align="center" style={{ marginBottom: 12 }}>
          <Typography.Text type="secondary">
            {hasRefundable ? t('order.refundableHint') : t('order.fullyRefunded')}
          </Typography.Text>
          {hasRefundable && (
            <Button icon={<RollbackOutlined />} onClick={() => setFormOpen(true)}>
              {t('order.refund')}
            </Button>
          )}
        </Flex>
      )}
      {refunds.isError ? (
        <Alert type="error" showIcon title={t('order.loadFailed')} />
      ) : (
        <Table<Refund>
          size="small"
          rowKey="refund_no"
          aria-label={t('order.title')}
          loading={refunds.isLoading}
          rows={refunds.data?.data ?? []}
          empty={t('order.none')}
          columns={[
            { key: 'refundNo', title: t('columns.refundNo'), render: (row) => row.refund_no },
            {
              key: 'amount',
              title: t('columns.amount'),
              align: 'right',
              render: (row) => <MoneyText value={row.amount} currency={row.currency} unit="code" />,
            },
            {
              key: 'status',
              title: t('columns.status'),
              render: (row) => (
                <Tag color={REFUND_STATUS.colors[row.status]}>{t(`status.${row.status}`)}</Tag>
              ),
            },
            {
              key: 'createdAt',
              title: t('columns.createdAt'),
              render: (row) => <DateTime value={row.created_at} />,
            },
          ]}
        />
      )}
      {isFormOpen && <RefundForm order={order} refundable={refundable} onClose={() => setFormOpen(false)} />}
    </section>
  );
}
