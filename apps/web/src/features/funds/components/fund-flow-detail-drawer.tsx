import { Descriptions, Drawer, Skeleton } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Currency } from '@paydesk/shared/money.ts';
import { DateTime } from '../../../components/date-time.tsx';
import { MoneyText } from '../../../components/money-text.tsx';
import { useFundFlow } from '../api/get-fund-flow.ts';
import { FundFlowTypeTag } from './fund-flow-type-tag.tsx';

/** One entry's detail (GET /api/merchant/fund-flows/:id). */
export function FundFlowDetailDrawer({ id, onClose }: { id: number | undefined; onClose: () => void }) {
  const { t, i18n } = useTranslation('funds');
  const { data: entry, isLoading } = useFundFlow(id);
  const refTypeKey = `funds:detail.refTypes.${entry?.ref_type}`;
  const currency = entry?.currency as Currency;
  return (
    <Drawer
      open={id !== undefined}
      onClose={onClose}
      title={t('detail.title', { id: id ?? '' })}
      size="large"
    >
      {isLoading || !entry ? (
        <Skeleton active />
      ) : (
        <Descriptions
          column={1}
          bordered
          size="small"
          items={[
            { key: 'id', label: t('detail.id'), children: entry.id },
            { key: 'type', label: t('columns.type'), children: <FundFlowTypeTag type={entry.type} /> },
            {
              key: 'amount',
              label: t('columns.amount'),
              children: <MoneyText value={entry.amount} currency={currency} signed unit="code" />,
            },
            {
              key: 'after',
              label: t('columns.availableAfter'),
              children: <MoneyText value={entry.available_after} currency={currency} unit="code" />,
            },
            {
              key: 'refType',
              label: t('detail.refType'),
              children: i18n.exists(refTypeKey) ? t(refTypeKey) : entry.ref_type,
            },
            { key: 'refNo', label: t('columns.refNo'), children: entry.ref_no ?? '-' },
            { key: 'note', label: t('columns.note'), children: entry.note ?? '-' },
            { key: 'time', label: t('columns.time'), children: <DateTime value={entry.created_at} /> },
          ]}
        />
      )}
    </Drawer>
  );
}
