import { Form, Input, Select } from 'antd';
import type { Dayjs } from 'dayjs';
import { useMemo } from 'react';
import type { QueryValue } from '../../lib/http.ts';
import { clockTime, DateRangeInput } from '../date-range-input.tsx';
import { useTimeZone } from '../date-time.tsx';
import { FilterBar } from '../filter-bar.tsx';
import type { FilterField } from './types.ts';

const DATE_TIME = 'YYYY-MM-DD HH:mm:ss';
const DATE = 'YYYY-MM-DD';

type FormValues = Record<string, unknown>;

const fieldName = (field: FilterField<string>) =>
  field.kind === 'text' || field.kind === 'select' ? field.name : field.from;

/** URL values -> form values (a range of two URL values is one picker). */
function toForm(fields: readonly FilterField<string>[], filters: Record<string, unknown>): FormValues {
  const values: FormValues = {};
  for (const field of fields) {
    if (field.kind === 'text' || field.kind === 'select') {
      values[field.name] = filters[field.name];
      continue;
    }
    const start = filters[field.from] as string | undefined;
    const end = filters[field.to] as string | undefined;
    // A date alone as the end of a time range means the whole of that day.
    const endOf = (value: string) =>
      field.kind === 'timeRange' && value.length === 10 ? `${value} 23:59:59` : value;
    values[field.from] = start && end ? [clockTime(start), clockTime(endOf(end))] : null;
  }
  return values;
}

/** Form values -> the URL's filters; times are wall-clock times the server reads in the user's zone. */
function toUrl(fields: readonly FilterField<string>[], values: FormValues): Record<string, QueryValue> {
  const patch: Record<string, QueryValue> = {};
  for (const field of fields) {
    if (field.kind === 'text') {
      patch[field.name] = (values[field.name] as string | undefined)?.trim() || undefined;
    } else if (field.kind === 'select') {
      patch[field.name] = values[field.name] as QueryValue;
    } else {
      const range = values[field.from] as [Dayjs, Dayjs] | null | undefined;
      const format = field.kind === 'timeRange' ? DATE_TIME : DATE;
      patch[field.from] = range?.[0]?.format(format);
      patch[field.to] = range?.[1]?.format(format);
    }
  }
  return patch;
}

/** The filter bar of a list page, drawn from its declared fields. */
export function ListFilters({
  fields,
  filters,
  onSearch,
  onReset,
}: {
  fields: readonly FilterField<string>[];
  filters: Record<string, unknown>;
  onSearch: (patch: Record<string, QueryValue>) => void;
  onReset: () => void;
}) {
  // Stable between renders while the URL's values stay the same (FilterBar resets the form on a change).
  // Pages build their field list on every render (labels come from t()), so the fields count by their
  // names, not their identity: a page rendering again (its user or currency loaded) keeps what is typed.
  const names = fields.flatMap((field) =>
    field.kind === 'text' || field.kind === 'select' ? [field.name] : [field.from, field.to],
  );
  const key = JSON.stringify([names, names.map((name) => filters[name])]);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- key stands for the fields and the values read from filters
  const values = useMemo(() => toForm(fields, filters), [key]);
  const timeZone = useTimeZone();
  return (
    <FilterBar<FormValues>
      values={values}
      onReset={onReset}
      onSearch={(form) => onSearch(toUrl(fields, form))}
    >
      {fields.map((field) => (
        <Form.Item key={fieldName(field)} name={fieldName(field)}>
          {field.kind === 'text' ? (
            <Input
              allowClear
              aria-label={field.label}
              placeholder={field.placeholder}
              style={{ width: field.width ?? 220 }}
            />
          ) : field.kind === 'select' ? (
            <Select
              allowClear
              aria-label={field.label}
              placeholder={field.placeholder}
              style={{ width: field.width ?? 200 }}
              options={field.options}
            />
          ) : (
            <DateRangeInput
              withTime={field.kind === 'timeRange'}
              placeholder={field.placeholder}
              aria-label={field.label}
              timeZone={timeZone}
            />
          )}
        </Form.Item>
      ))}
    </FilterBar>
  );
}
