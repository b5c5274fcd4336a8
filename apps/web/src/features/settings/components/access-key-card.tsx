import {
  EyeInvisibleOutlined,
  EyeOutlined,
  KeyOutlined,
  ReadOutlined,
  SyncOutlined,
} from '@ant-design/icons';
import { Alert, Button, Card, Descriptions, Empty, Modal, Skeleton, Space, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DateTime } from '../../../components/date-time.tsx';
import { useMode } from '../../../stores/mode.ts';
import { useAccessKey } from '../api/get-access-key.ts';
import { type RegeneratedAccessKey, useRegenerateAccessKey } from '../api/regenerate-access-key.ts';
import { type AccessKeySecret, useRevealAccessKeySecret } from '../api/reveal-access-key-secret.ts';
import { NotifyUrlForm } from './notify-url-form.tsx';
import { StepUpDialog } from './step-up-dialog.tsx';

/** Where the gateway's readable reference is served (DESIGN section 6); the server's page, not the console's. */
const API_REFERENCE_URL = '/gateway/docs';
const MASK = '••••••••••••••••••••••••';

function Secret({ value, testId }: { value: string | undefined; testId: string }) {
  const { t } = useTranslation('settings');
  if (value === undefined) {
    return (
      <Typography.Text type="secondary" data-testid={testId} title={t('accessKey.hiddenHint')}>
        {MASK}
      </Typography.Text>
    );
  }
  return (
    <Typography.Text code copyable data-testid={testId}>
      {value}
    </Typography.Text>
  );
}

/**
 * The merchant's access key: merchant number and key in the clear, the secret key and the webhook secret
 * behind the payment password and a Google code (held in this component only, so leaving the page hides
 * them again, and so does switching to another tab while the page is kept alive), regenerating, and the
 * default notify URL.
 */
export function AccessKeyCard() {
  const { t } = useTranslation(['settings', 'modes']);
  // The key of the console's mode (DESIGN 12); the layout mounts this page afresh when the mode changes.
  const mode = useMode();
  const { data: key, isPending, isError } = useAccessKey();
  const reveal = useRevealAccessKeySecret();
  const regenerate = useRegenerateAccessKey();
  const [secrets, setSecrets] = useState<AccessKeySecret | null>(null);
  const [dialog, setDialog] = useState<'reveal' | 'regenerate' | null>(null);
  const [issued, setIssued] = useState<RegeneratedAccessKey | null>(null);
  // The tags view keeps the page alive while another tab is shown, and ends its effects: secrets go.
  useEffect(
    () => () => {
      setSecrets(null);
      setIssued(null);
    },
    [],
  );

  const apiReference = (
    <Typography.Link href={API_REFERENCE_URL} target="_blank" rel="noopener noreferrer">
      <ReadOutlined /> {t('accessKey.apiReference')}
    </Typography.Link>
  );

  const modeHint = (
    <Alert
      type={mode === 'test' ? 'warning' : 'info'}
      showIcon
      style={{ marginBottom: 16 }}
      title={t(mode === 'test' ? 'modes:accessKey.testHint' : 'modes:accessKey.liveHint')}
      data-testid="access-key-mode-hint"
    />
  );

  let body;
  if (isPending) body = <Skeleton active paragraph={{ rows: 4 }} />;
  else if (isError) body = <Typography.Text type="secondary">{t('accessKey.loadFailed')}</Typography.Text>;
  else if (!key) {
    body = (
      <Empty
        image={Empty.PRESENTED_IMAGE_SIMPLE}
        description={
          <>
            <strong>{t('accessKey.none')}</strong>
            <br />
            {t('accessKey.noneHint')}
          </>
        }
      >
        <Button type="primary" icon={<KeyOutlined />} onClick={() => setDialog('regenerate')}>
          {t('accessKey.generate')}
        </Button>
      </Empty>
    );
  } else {
    body = (
      <>
        <Descriptions
          column={1}
          size="small"
          styles={{ label: { width: 180 } }}
          items={[
            {
              key: 'merchantNo',
              label: t('accessKey.merchantNo'),
              children: (
                <Typography.Text code copyable>
                  {key.merchant_no}
                </Typography.Text>
              ),
            },
            {
              key: 'accessKey',
              label: t('accessKey.accessKey'),
              children: (
                <Typography.Text code copyable data-testid="access-key">
                  {key.access_key}
                </Typography.Text>
              ),
            },
            {
              key: 'secret',
              label: t('accessKey.secret'),
              children: <Secret value={secrets?.secret} testId="access-key-secret" />,
            },
            {
              key: 'webhookSecret',
              label: t('accessKey.webhookSecret'),
              children: <Secret value={secrets?.webhook_secret} testId="access-key-webhook-secret" />,
            },
            {
              key: 'createdAt',
              label: t('accessKey.createdAt'),
              children: <DateTime value={key.created_at} />,
            },
            {
              key: 'rotatedAt',
              label: t('accessKey.rotatedAt'),
              children: key.rotated_at ? <DateTime value={key.rotated_at} /> : t('accessKey.neverRotated'),
            },
          ]}
        />
        <Space wrap style={{ marginTop: 8 }}>
          {secrets ? (
            <Button icon={<EyeInvisibleOutlined />} onClick={() => setSecrets(null)}>
              {t('accessKey.hide')}
            </Button>
          ) : (
            <Button type="primary" icon={<EyeOutlined />} onClick={() => setDialog('reveal')}>
              {t('accessKey.reveal')}
            </Button>
          )}
          <Button danger icon={<SyncOutlined />} onClick={() => setDialog('regenerate')}>
            {t('accessKey.regenerate')}
          </Button>
        </Space>
        <NotifyUrlForm notifyUrl={key.notify_url} mode={mode} />
      </>
    );
  }

  const isFirstKey = !key;
  return (
    <Card
      title={
        <Space>
          {t('accessKey.title')}
          <Tag color={mode === 'test' ? 'orange' : 'green'} data-testid="access-key-mode">
            {t(mode === 'test' ? 'modes:accessKey.test' : 'modes:accessKey.live')}
          </Tag>
        </Space>
      }
      extra={apiReference}
      style={{ marginBottom: 16 }}
    >
      {modeHint}
      {body}
      <StepUpDialog
        open={dialog === 'reveal'}
        title={t('accessKey.revealTitle')}
        okText={t('accessKey.reveal')}
        intro={<Typography.Paragraph type="secondary">{t('accessKey.revealHint')}</Typography.Paragraph>}
        onSubmit={async (values) => setSecrets(await reveal.mutateAsync({ ...values, mode }))}
        onClose={() => setDialog(null)}
      />
      <StepUpDialog
        open={dialog === 'regenerate'}
        title={isFirstKey ? t('accessKey.generate') : t('accessKey.regenerateTitle')}
        okText={isFirstKey ? t('accessKey.generate') : t('accessKey.regenerate')}
        intro={
          !isFirstKey && (
            <Alert
              type="warning"
              showIcon
              style={{ marginBottom: 16 }}
              title={t('accessKey.regenerateWarning')}
            />
          )
        }
        onSubmit={async (values) => {
          const next = await regenerate.mutateAsync({ ...values, mode });
          // The old secrets are dead: what was revealed of them goes.
          setSecrets(null);
          setIssued(next);
        }}
        onClose={() => setDialog(null)}
      />
      <Modal
        open={issued !== null}
        title={t('accessKey.newSecretsTitle')}
        onCancel={() => setIssued(null)}
        footer={
          <Button type="primary" onClick={() => setIssued(null)}>
            {t('accessKey.done')}
          </Button>
        }
        mask={{ closable: false }}
        destroyOnHidden
        centered
        width={640}
      >
        {issued && (
          <>
            <Alert type="info" showIcon style={{ marginBottom: 16 }} title={t('accessKey.newSecretsHint')} />
            <Descriptions
              column={1}
              size="small"
              bordered
              items={[
                {
                  key: 'accessKey',
                  label: t('accessKey.accessKey'),
                  children: (
                    <Typography.Text code copyable>
                      {issued.access_key}
                    </Typography.Text>
                  ),
                },
                {
                  key: 'secret',
                  label: t('accessKey.secret'),
                  children: (
                    <Typography.Text code copyable data-testid="new-secret">
                      {issued.secret}
                    </Typography.Text>
                  ),
                },
                {
                  key: 'webhookSecret',
                  label: t('accessKey.webhookSecret'),
                  children: (
                    <Typography.Text code copyable data-testid="new-webhook-secret">
                      {issued.webhook_secret}
                    </Typography.Text>
                  ),
                },
              ]}
            />
          </>
        )}
      </Modal>
    </Card>
  );
}
