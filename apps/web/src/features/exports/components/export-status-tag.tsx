import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ExportStatus } from '@paydesk/shared/exports/exports.schemas.ts';

const STATUS_COLORS: Record<ExportStatus, string> = {
  waiting: 'default',
  exporting: 'processing',
  success: 'success',
  failed: 'error',
};

/** An export task's status with the spec's labels (Waiting for execution, Exporting, ...). */
export function ExportStatusTag({ status }: { status: ExportStatus }) {
  const { t } = useTranslation('exports');
  return <Tag color={STATUS_COLORS[status]}>{t(`status.${status}`)}</Tag>;
}
