import { DownloadOutlined } from '@ant-design/icons';
import { App, Button, Dropdown } from 'antd';
import type React from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { ExportFormat, ExportKind } from '@paydesk/shared/exports/exports.schemas.ts';
import { HasPerm } from '../../../components/has-perm.tsx';
import { isHttpError } from '../../../lib/http.ts';
import { useCreateExport } from '../api/create-export.ts';

/**
 * The Export button of a list page (the list kit's Export slot): CSV or XLSX of the page's current
 * filters, made in the background; the message says where to find it, or, when 10 exports already
 * wait, says so in the same place.
 */
export function ExportButton({ kind, filters }: { kind: ExportKind; filters: Record<string, unknown> }) {
  const { t } = useTranslation('exports');
  const { message } = App.useApp();
  const create = useCreateExport();
  const navigate = useNavigate();
  // The toast renders outside the page's router context: a plain link that navigates through this one.
  const openExports = (event: React.MouseEvent) => {
    event.preventDefault();
    message.destroy('export-created');
    void navigate('/lineExport');
  };

  const start = (format: ExportFormat) =>
    create.mutate(
      { kind, format, filters },
      {
        onSuccess: () =>
          void message.success({
            key: 'export-created',
            duration: 6,
            content: (
              <span data-testid="export-created">
                {t('button.created')}{' '}
                <a href="/lineExport" onClick={openExports}>
                  {t('button.goToExports')}
                </a>
              </span>
            ),
          }),
        // The client shows every other failure; the message is the code's, in the user's language.
        onError: (error) => {
          if (!isHttpError(error) || error.status !== 429) return;
          void message.warning({
            key: 'export-created',
            duration: 8,
            content: (
              <span data-testid="export-refused">
                {error.message}{' '}
                <a href="/lineExport" onClick={openExports}>
                  {t('button.goToExports')}
                </a>
              </span>
            ),
          });
        },
      },
    );

  return (
    <HasPerm perm="export:create">
      <Dropdown
        trigger={['click']}
        menu={{
          items: [
            { key: 'csv', label: t('button.csv') },
            { key: 'xlsx', label: t('button.xlsx') },
          ],
          onClick: ({ key }) => start(key as ExportFormat),
        }}
      >
        <Button icon={<DownloadOutlined />} loading={create.isPending} data-testid="export-button">
          {t('button.label')}
        </Button>
      </Dropdown>
    </HasPerm>
  );
}
