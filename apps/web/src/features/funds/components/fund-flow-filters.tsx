import { DatePicker, Form, Input, Select } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import {
  FUND_FLOW_TYPES,
  type FundFlowListQuery,
  type FundFlowType,
} from '@paydesk/shared/funds/funds.schemas.ts';
import { FilterBar } from '../../../components/filter-bar.tsx';

type FormValues = { type?: FundFlowType; range?: [Dayjs, Dayjs] | null; ref_no?: string };

const FORMAT = 'YYYY-MM-DD HH:mm:ss';

/** The list's filters as URL values: times are wall-clock times, read by the server in the user's zone. */
export type FundFlowFilterPatch = Pick<FundFlowListQuery, 'type' | 'start_time' | 'end_time' | 'ref_no'>;

export function FundFlowFilters({
  filters,
  onSearch,
  onReset,
}: {
  filters: FundFlowListQuery;
  onSearch: (patch: FundFlowFilterPatch) => void;
  onReset: () => void;
}) {
  const { t } = useTranslation('funds');
  const { type, start_time: start, end_time: end, ref_no: refNo } = filters;
  const values = useMemo<FormValues>(
    () => ({
      type,
      ref_no: refNo,
      range: start && end ? [dayjs(start), dayjs(end.length === 10 ? `${end} 23:59:59` : end)] : null,
    }),
    [type, start, end, refNo],
  );
  return (
    <FilterBar<FormValues>
      values={values}
      onReset={onReset}
      onSearch={(form) =>
        onSearch({
          type: form.type,
          ref_no: form.ref_no?.trim() || undefined,
          start_time: form.range?.[0]?.format(FORMAT),
          end_time: form.range?.[1]?.format(FORMAT),
        })
      }
    >
      <Form.Item name="type">
        <Select<FundFlowType>
          allowClear
          aria-label={t('columns.type')}
          placeholder={t('filters.type')}
          style={{ width: 240 }}
          options={FUND_FLOW_TYPES.map((value) => ({ value, label: t(`types.${value}`) }))}
        />
      </Form.Item>
      <Form.Item name="range">
        <DatePicker.RangePicker
          showTime={{ defaultValue: [dayjs('00:00:00', 'HH:mm:ss'), dayjs('23:59:59', 'HH:mm:ss')] }}
          format={FORMAT}
          placeholder={[t('filters.startTime'), t('filters.endTime')]}
          aria-label={t('columns.time')}
        />
      </Form.Item>
      <Form.Item name="ref_no">
        <Input
          allowClear
          aria-label={t('columns.refNo')}
          placeholder={t('filters.refNo')}
          style={{ width: 260 }}
        />
      </Form.Item>
    </FilterBar>
  );
}
