import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { changeLanguage } from '../i18n/index.ts';
import { DataTable } from './data-table.tsx';
import { Table, type TableColumn } from './table.tsx';

type Row = { no: string; amount: string };

const columns: TableColumn<Row>[] = [
  { key: 'no', title: 'Order', render: (row) => row.no },
  { key: 'amount', title: 'Amount', align: 'right', width: 120, render: (row) => `${row.amount} CNY` },
];
const rows: Row[] = [
  { no: 'P1', amount: '10.00' },
  { no: 'P2', amount: '2.50' },
];

const bodyRows = () =>
  screen.getAllByRole<HTMLTableRowElement>('row').filter((row) => row.classList.contains('data-table__row'));

beforeAll(async () => {
  await changeLanguage('en');
});

describe('Table', () => {
  it('shows a header cell per column and a row per item, each cell as its column renders it', () => {
    render(<Table<Row> aria-label="Orders" columns={columns} rows={rows} rowKey="no" />);
    const table = screen.getByRole('table', { name: 'Orders' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Order', 'Amount']);
    expect(bodyRows().map((row) => [...row.cells].map((cell) => cell.textContent))).toEqual([
      ['P1', '10.00 CNY'],
      ['P2', '2.50 CNY'],
    ]);
    expect(bodyRows()[0].dataset.rowKey).toBe('P1');
    // Amounts line up on the right, under a right-aligned title, at the column's width.
    const amountHeader = screen.getByRole('columnheader', { name: 'Amount' });
    expect(amountHeader.style.textAlign).toBe('right');
    expect(amountHeader.style.width).toBe('120px');
    expect(bodyRows()[1].cells[1].style.textAlign).toBe('right');
  });

  it('shows what it is given for no rows, across every column', () => {
    render(<Table<Row> columns={columns} rows={[]} rowKey="no" empty="Nothing here yet" />);
    expect(bodyRows()).toHaveLength(0);
    const placeholder = screen.getByText('Nothing here yet').closest('td')!;
    expect(placeholder.colSpan).toBe(2);
  });

  it('says nothing of rows while the first ones load', () => {
    const { rerender } = render(
      <Table<Row> columns={columns} rows={[]} rowKey="no" empty="Nothing here yet" loading />,
    );
    expect(screen.queryByText('Nothing here yet')).toBeNull();
    rerender(<Table<Row> columns={columns} rows={[]} rowKey="no" empty="Nothing here yet" />);
    expect(screen.getByText('Nothing here yet')).toBeInTheDocument();
  });

  it('says it is busy while loading, keeping the rows it has', async () => {
    const { container, rerender } = render(<Table<Row> columns={columns} rows={rows} rowKey="no" />);
    expect(screen.getByRole('table').getAttribute('aria-busy')).toBeNull();
    rerender(<Table<Row> columns={columns} rows={rows} rowKey="no" loading />);
    expect(screen.getByRole('table').getAttribute('aria-busy')).toBe('true');
    await waitFor(() => expect(container.querySelector('.ant-spin-spinning')).not.toBeNull());
    expect(bodyRows()).toHaveLength(2);
  });
});

describe('DataTable', () => {
  const result = (total: number, capped = false) => ({ data: rows, meta: { total, total_capped: capped } });

  it('shows the total and pages through it, a new page size starting again from page 1', () => {
    const onPageChange = vi.fn();
    render(
      <DataTable<Row>
        columns={columns}
        rowKey="no"
        result={result(45)}
        page={2}
        perPage={20}
        onPageChange={onPageChange}
      />,
    );
    expect(screen.getByText('45 in total')).toBeInTheDocument();
    expect(screen.getByTitle('3')).toBeInTheDocument();
    expect(screen.queryByTitle('4')).toBeNull();
    fireEvent.click(screen.getByTitle('3'));
    expect(onPageChange).toHaveBeenLastCalledWith(3, 20);
  });

  it('says "more than" when the server stopped counting', () => {
    render(
      <DataTable<Row>
        columns={columns}
        rowKey="no"
        result={result(10_000, true)}
        page={1}
        perPage={20}
        onPageChange={() => undefined}
      />,
    );
    expect(screen.getByText('More than 10000')).toBeInTheDocument();
  });

  it('has no pager for an empty list or before the first answer', () => {
    const { container, rerender } = render(
      <DataTable<Row>
        columns={columns}
        rowKey="no"
        result={{ data: [], meta: { total: 0, total_capped: false } }}
        page={1}
        perPage={20}
        onPageChange={() => undefined}
      />,
    );
    expect(container.querySelector('.ant-pagination')).toBeNull();
    rerender(
      <DataTable<Row>
        columns={columns}
        rowKey="no"
        result={undefined}
        page={1}
        perPage={20}
        onPageChange={() => undefined}
      />,
    );
    expect(container.querySelector('.ant-pagination')).toBeNull();
    expect(bodyRows()).toHaveLength(0);
  });
});
