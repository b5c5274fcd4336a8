import { DownloadOutlined, RedoOutlined } from '@ant-design/icons';
import { Button, Progress, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { type ExportTask, ExportListQuerySchema } from '@paydesk/shared/exports/exports.schemas.ts';
import { HasPerm } from '../../../components/has-perm.tsx';
import { column, declaredListPage, renderCell, statusTag } from '../../../components/list-page/index.ts';
import { exportDownloadUrl, exportsApi } from '../api/get-exports.ts';
import { useRetryExport } from '../api/retry-export.ts';

/** 1536 -> "1.5 KB". */
function fileSize(bytes: number | null): string {
  if (bytes === null) return '-';
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function ExportProgress({ task }: { task: ExportTask }) {
  if (task.status === 'waiting') return <Progress percent={0} size="small" />;
  if (task.status === 'failed')
    return <Progress percent={progressOf(task)} size="small" status="exception" />;
  if (task.status === 'success') return <Progress percent={100} size="small" />;
  return <Progress percent={progressOf(task)} size="small" status="active" />;
}

const progressOf = (task: ExportTask) =>
  task.rows_expected === 0 ? 0 : Math.min(99, Math.floor((task.rows_done / task.rows_expected) * 100));

function ExportActions({ task }: { task: ExportTask }) {
  const { t } = useTranslation('exports');
  const retry = useRetryExport();
  if (task.status === 'success' && !task.expired) {
    return (
      <Button
        type="link"
        size="small"
        icon={<DownloadOutlined />}
        href={exportDownloadUrl(task.id)}
        download={task.file_name}
        data-testid={`export-download-${task.id}`}
      >
        {t('actions.download')}
      </Button>
    );
  }
  if (task.status === 'failed') {
    return (
      <HasPerm perm="export:create">
        <Button
          type="link"
          size="small"
          icon={<RedoOutlined />}
          loading={retry.isPending}
          onClick={() => retry.mutate(task.id)}
        >
          {t('actions.retry')}
        </Button>
      </HasPerm>
    );
  }
  if (task.expired) return <Typography.Text type="secondary">{t('actions.expired')}</Typography.Text>;
  return <Typography.Text type="secondary">-</Typography.Text>;
}

/** An export task's status with the spec's labels (Waiting for execution, Exporting, ...). */
const EXPORT_STATUS = statusTag({
  waiting: 'default',
  exporting: 'processing',
  success: 'success',
  failed: 'error',
});

/** Exports: the merchant's export tasks with their progress, downloads for 7 days, retry when failed. */
export default declaredListPage({
  name: 'export',
  namespace: 'exports',
  title: 'routes:lineExport',
  query: ExportListQuerySchema,
  api: exportsApi,
  rowKey: 'id',
  columns: [
    column.text('id', 'id', { width: 64 }),
    {
      key: 'kind',
      title: 'columns.kind',
      kind: 'custom',
      render: (row, { t }) => `${t(`kinds.${row.kind}`)} (${row.format.toUpperCase()})`,
    },
    {
      key: 'status',
      title: 'columns.status',
      kind: 'custom',
      render: (row, context) => (
        <Space orientation="vertical" size={0}>
          {renderCell({ kind: 'status', field: 'status', ...EXPORT_STATUS }, row, context)}
          {row.status === 'failed' && row.error ? (
            <Typography.Text type="danger" style={{ fontSize: 12 }} data-testid={`export-error-${row.id}`}>
              {row.error}
            </Typography.Text>
          ) : null}
        </Space>
      ),
    },
    {
      key: 'progress',
      title: 'columns.progress',
      kind: 'custom',
      render: (row) => <ExportProgress task={row} />,
      width: 110,
    },
    {
      key: 'rows',
      title: 'columns.rows',
      kind: 'custom',
      align: 'right',
      render: (row) => (row.row_count ?? row.rows_expected).toLocaleString('en-US'),
    },
    {
      key: 'size',
      title: 'columns.size',
      kind: 'custom',
      align: 'right',
      render: (row) => fileSize(row.size),
    },
    column.time('createdAt', 'created_at'),
    column.time('expiresAt', 'expires_at'),
    {
      key: 'actions',
      title: 'columns.actions',
      kind: 'custom',
      render: (row) => <ExportActions task={row} />,
    },
  ],
});
