import { Tag, Typography } from 'antd';
import type { ReactNode } from 'react';
import type { Currency } from '@paydesk/shared/money.ts';
import { DateTime } from '../date-time.tsx';
import { MoneyText } from '../money-text.tsx';
import type { Cell, CellContext, Words } from './declaration.ts';

const isEmpty = (value: unknown) => value === null || value === undefined || value === '';

/** Whether a cell has nothing to show for this row (a drawer leaves such `omitEmpty` fields out). */
export const isEmptyCell = <Row,>(cell: Cell<Row>, row: Row, context: CellContext): boolean =>
  isEmpty(cell.kind === 'custom' ? cell.render(row, context) : row[cell.field]);

/** Money and counts line up on the right in a table. */
export const alignOf = <Row,>(cell: Cell<Row>): 'right' | undefined =>
  cell.kind === 'money' || cell.kind === 'count' ? 'right' : undefined;

export const wordsOf = <Row,>(words: Words<Row>, context: CellContext, row: Row): string =>
  typeof words === 'string' ? context.t(words) : words(context.t, row);

/** One value of a row as its kind shows it; `inDrawer` makes a copyable text copyable. */
export function renderCell<Row>(
  cell: Cell<Row>,
  row: Row,
  context: CellContext,
  inDrawer = false,
): ReactNode {
  if (cell.kind === 'custom') return cell.render(row, context);
  const value = row[cell.field] as unknown;
  switch (cell.kind) {
    case 'text':
      if (isEmpty(value)) return '-';
      return cell.copyable && inDrawer ? (
        <Typography.Text copyable style={{ wordBreak: 'break-all' }}>
          {String(value)}
        </Typography.Text>
      ) : (
        String(value)
      );
    case 'money': {
      // The row's own currency where it has one (every order and entry does), else the merchant's (the sums).
      const currency = !cell.currency
        ? ((row as { currency?: Currency }).currency ?? context.merchantCurrency)
        : 'code' in cell.currency
          ? cell.currency.code
          : (row[cell.currency.field] as Currency);
      return (
        <MoneyText
          value={value as string | null}
          currency={currency}
          signed={cell.signed}
          unit={cell.unit ?? 'code'}
        />
      );
    }
    case 'time':
      return <DateTime value={value as string | null} />;
    case 'status':
      return <Tag color={cell.colors[value as string]}>{context.t(`${cell.labels}.${String(value)}`)}</Tag>;
    case 'count':
      return isEmpty(value) ? '-' : (value as number).toLocaleString('en-US');
  }
}
