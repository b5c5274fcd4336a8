import { SafetyCertificateOutlined } from '@ant-design/icons';
import { App, Button, Modal, Space, Tag, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SectionCard } from '../../../components/page-container.tsx';
import { currentUserQueryKey } from '../../../lib/auth/get-current-user.ts';
import { type Authenticator, getAuthenticator } from '../api/get-authenticator.ts';
import { getRecoveryCodes } from '../api/get-recovery-codes.ts';
import { securityEventsQueryKey } from '../api/get-security-events.ts';
import { sessionsQueryKey } from '../api/get-sessions.ts';
import { userMetaQueryKey, type UserMeta } from '../api/get-user-meta.ts';
import { regenerateRecoveryCodes } from '../api/regenerate-recovery-codes.ts';
import { RecoveryCodes } from './recovery-codes.tsx';
import { TwoFactorDisableDialog } from './two-factor-disable-dialog.tsx';
import { TwoFactorSetupDialog } from './two-factor-setup-dialog.tsx';
import { usePasswordConfirmation } from './use-password-confirmation.tsx';

/** Settings > Security: two-factor on or off, recovery codes. Every change asks for the password first. */
export function TwoFactorCard({ meta }: { meta: UserMeta | undefined }) {
  const { t } = useTranslation('security');
  const { modal, message } = App.useApp();
  const queryClient = useQueryClient();
  const { withConfirmation } = usePasswordConfirmation();
  const [authenticator, setAuthenticator] = useState<Authenticator | null>(null);
  const [shownCodes, setShownCodes] = useState<string[] | null>(null);
  const [isDisabling, setDisabling] = useState(false);
  const [busy, setBusy] = useState<'enable' | 'show' | 'regenerate' | 'disable' | null>(null);

  const refresh = async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: userMetaQueryKey }),
      queryClient.invalidateQueries({ queryKey: currentUserQueryKey }),
      queryClient.invalidateQueries({ queryKey: securityEventsQueryKey }),
      queryClient.invalidateQueries({ queryKey: sessionsQueryKey }),
    ]);
  };

  const run = async (kind: NonNullable<typeof busy>, work: () => Promise<void>) => {
    setBusy(kind);
    try {
      await work();
    } finally {
      setBusy(null);
    }
  };

  const enable = () =>
    run('enable', async () => {
      const found = await withConfirmation(getAuthenticator);
      if (found) setAuthenticator(found);
    });

  const showCodes = () =>
    run('show', async () => {
      const codes = await withConfirmation(getRecoveryCodes);
      if (codes) setShownCodes(codes);
      await refresh();
    });

  const regenerate = () =>
    modal.confirm({
      title: t('twoFactor.regenerateConfirmTitle'),
      content: t('twoFactor.regenerateConfirm'),
      okText: t('twoFactor.regenerate'),
      cancelText: t('confirmPassword.cancel'),
      centered: true,
      // Closes at once: the password dialog may have to open next.
      onOk: () =>
        void run('regenerate', async () => {
          const done = await withConfirmation(async () => {
            await regenerateRecoveryCodes();
            return true;
          });
          if (!done) return;
          setShownCodes(await getRecoveryCodes());
          message.success(t('twoFactor.regenerated'));
          await refresh();
        }),
    });

  // The password first, then the warning and the authenticator's code (TwoFactorDisableDialog).
  const disable = () =>
    run('disable', async () => {
      if (await withConfirmation(async () => true)) setDisabling(true);
    });

  const isEnabled = meta?.two_factor_enabled ?? false;
  const status = isEnabled ? (
    <Tag color="success">{t('twoFactor.on')}</Tag>
  ) : meta?.two_factor_pending ? (
    <Tag color="warning">{t('twoFactor.pending')}</Tag>
  ) : (
    <Tag>{t('twoFactor.off')}</Tag>
  );

  return (
    <SectionCard
      title={
        <Space>
          <SafetyCertificateOutlined />
          {t('twoFactor.title')}
          {meta && <span data-testid="two-factor-status">{status}</span>}
        </Space>
      }
    >
      <Typography.Paragraph type="secondary">
        {isEnabled ? t('twoFactor.descriptionOn') : t('twoFactor.descriptionOff')}
      </Typography.Paragraph>
      {meta && (
        <Space wrap>
          {isEnabled ? (
            <>
              <Button onClick={showCodes} loading={busy === 'show'}>
                {t('twoFactor.showRecoveryCodes')}
              </Button>
              <Button onClick={regenerate} loading={busy === 'regenerate'}>
                {t('twoFactor.regenerate')}
              </Button>
              <Button danger onClick={disable} loading={busy === 'disable'}>
                {t('twoFactor.disable')}
              </Button>
            </>
          ) : (
            <Button type="primary" onClick={enable} loading={busy === 'enable'}>
              {t('twoFactor.enable')}
            </Button>
          )}
        </Space>
      )}
      <TwoFactorSetupDialog
        authenticator={authenticator}
        onClose={(isNowEnabled) => {
          setAuthenticator(null);
          if (isNowEnabled) message.success(t('twoFactor.enabled'));
          void refresh();
        }}
      />
      <TwoFactorDisableDialog
        open={isDisabling}
        onClose={(isDisabled) => {
          setDisabling(false);
          if (!isDisabled) return;
          message.success(t('twoFactor.disabled'));
          void refresh();
        }}
      />
      <Modal
        open={shownCodes !== null}
        title={t('twoFactor.recoveryTitle')}
        onCancel={() => setShownCodes(null)}
        footer={
          <Button type="primary" onClick={() => setShownCodes(null)}>
            {t('twoFactor.close')}
          </Button>
        }
        destroyOnHidden
        centered
      >
        <Typography.Paragraph type="warning">{t('twoFactor.recoveryHintView')}</Typography.Paragraph>
        <RecoveryCodes codes={shownCodes ?? []} />
      </Modal>
    </SectionCard>
  );
}
