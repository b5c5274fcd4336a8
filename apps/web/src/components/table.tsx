import { Empty, Spin, theme } from 'antd';
import type { CSSProperties, ReactNode } from 'react';
import './table.css';

/** A column: its title and how a row shows in it. */
export type TableColumn<Row> = {
  key: string;
  title: ReactNode;
  render: (row: Row) => ReactNode;
  align?: 'left' | 'right' | 'center';
  width?: number;
};

/** Cell padding (block, inline) in px by size, as antd's Table has it. */
const PADDING = { large: [16, 16], middle: [12, 8], small: [8, 8] } as const;

/**
 * The console's table: a plain <table> drawn in antd's look from the theme's tokens. antd's own Table
 * brings sorting, filters, selection, trees and virtual scrolling the console never uses, 52 KB gzip on
 * every list page (DESIGN 8: a page under 80 KB beyond the layout); this is what the lists use of it.
 * Rows are `tr.data-table__row`; wider than its card, the table scrolls sideways.
 */
export function Table<Row>({
  columns,
  rows,
  rowKey,
  loading = false,
  empty,
  size = 'large',
  'aria-label': label,
}: {
  columns: readonly TableColumn<Row>[];
  rows: readonly Row[];
  rowKey: keyof Row & string;
  loading?: boolean;
  /** What an empty table shows (antd's empty picture by default). */
  empty?: ReactNode;
  size?: keyof typeof PADDING;
  'aria-label'?: string;
}) {
  const { token } = theme.useToken();
  const [block, inline] = PADDING[size];
  const style = {
    '--data-table-bg': token.colorBgContainer,
    '--data-table-header-bg': token.colorFillAlter,
    '--data-table-header-color': token.colorTextHeading,
    '--data-table-header-weight': token.fontWeightStrong,
    '--data-table-border': token.colorBorderSecondary,
    '--data-table-hover-bg': token.colorFillAlter,
    '--data-table-radius': `${token.borderRadiusLG}px`,
    '--data-table-color': token.colorText,
    '--data-table-font-size': `${token.fontSize}px`,
    '--data-table-line-height': token.lineHeight,
    '--data-table-padding': `${block}px ${inline}px`,
    '--data-table-empty-color': token.colorTextDisabled,
    '--data-table-motion': token.motionDurationMid,
  } as CSSProperties;
  return (
    <Spin spinning={loading}>
      <div className="data-table" style={style}>
        <div className="data-table__scroll">
          <table aria-label={label} aria-busy={loading || undefined}>
            <thead>
              <tr>
                {columns.map((column) => (
                  <th key={column.key} scope="col" style={{ textAlign: column.align, width: column.width }}>
                    {column.title}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.length === 0 ? (
                <tr className="data-table__placeholder">
                  <td colSpan={columns.length}>
                    {/* Loading: nothing is said about rows not read yet; the spinner stands over a blank. */}
                    {loading ? (
                      <div className="data-table__loading" />
                    ) : (
                      (empty ?? <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />)
                    )}
                  </td>
                </tr>
              ) : (
                rows.map((row) => (
                  <tr
                    key={String(row[rowKey])}
                    className="data-table__row"
                    data-row-key={String(row[rowKey])}
                  >
                    {columns.map((column) => (
                      <td key={column.key} style={{ textAlign: column.align }}>
                        {column.render(row)}
                      </td>
                    ))}
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </div>
      </div>
    </Spin>
  );
}
