import { DownloadOutlined, RedoOutlined } from '@ant-design/icons';
import { Button, Progress, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { type ExportTask, ExportListQuerySchema } from '@paydesk/shared/exports/exports.schemas.ts';
import { DateTime } from '../../../components/date-time.tsx';
import { HasPerm } from '../../../components/has-perm.tsx';
import { type ListColumn, ListPage } from '../../../components/list-page/index.ts';
import { exportDownloadUrl, useExports } from '../api/get-exports.ts';
import { useRetryExport } from '../api/retry-export.ts';
import { ExportStatusTag } from '../components/export-status-tag.tsx';

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

/** Exports: the merchant's export tasks with their progress, downloads for 7 days, retry when failed. */
export default function LineExportPage() {
  const { t } = useTranslation(['exports', 'routes']);

  const columns: ListColumn<ExportTask>[] = [
    { key: 'id', title: t('columns.id'), render: (row) => row.id, width: 64 },
    {
      key: 'kind',
      title: t('columns.kind'),
      render: (row) => `${t(`kinds.${row.kind}`)} (${row.format.toUpperCase()})`,
    },
    {
      key: 'status',
      title: t('columns.status'),
      render: (row) => (
        <Space orientation="vertical" size={0}>
          <ExportStatusTag status={row.status} />
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
      title: t('columns.progress'),
      render: (row) => <ExportProgress task={row} />,
      width: 110,
    },
    {
      key: 'rows',
      title: t('columns.rows'),
      align: 'right',
      render: (row) => (row.row_count ?? row.rows_expected).toLocaleString('en-US'),
    },
    { key: 'size', title: t('columns.size'), align: 'right', render: (row) => fileSize(row.size) },
    { key: 'created', title: t('columns.createdAt'), render: (row) => <DateTime value={row.created_at} /> },
    { key: 'expires', title: t('columns.expiresAt'), render: (row) => <DateTime value={row.expires_at} /> },
    { key: 'actions', title: t('columns.actions'), render: (row) => <ExportActions task={row} /> },
  ];

  return (
    <ListPage
      title={t('routes:lineExport')}
      name="export"
      filters={ExportListQuerySchema}
      useList={useExports}
      rowKey="id"
      columns={columns}
      empty={{ none: t('empty.none'), filtered: t('empty.none') }}
    />
  );
}
