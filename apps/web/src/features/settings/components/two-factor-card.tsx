import { SafetyCertificateOutlined } from '@ant-design/icons';
import { App, Button, Modal, Space, Tag, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ERROR_CODES } from '@paydesk/shared/errors.ts';
import { SectionCard } from '../../../components/page-container.tsx';
import { currentUserQueryKey } from '../../../lib/auth/get-current-user.ts';
import { isHttpError } from '../../../lib/http.ts';
import { disableTwoFactor } from '../api/disable-two-factor.ts';
import { type Authenticator, getAuthenticator } from '../api/get-authenticator.ts';
import { getRecoveryCodes } from '../api/get-recovery-codes.ts';
import { securityEventsQueryKey } from '../api/get-security-events.ts';
import { sessionsQueryKey } from '../api/get-sessions.ts';
import { userMetaQueryKey, type UserMeta } from '../api/get-user-meta.ts';
import { regenerateRecoveryCodes } from '../api/regenerate-recovery-codes.ts';
import { RecoveryCodes } from './recovery-codes.tsx';
import { TwoFactorCodeDialog } from './two-factor-code-dialog.tsx';
import { TwoFactorSetupDialog } from './two-factor-setup-dialog.tsx';
import { usePasswordConfirmation } from './use-password-confirmation.tsx';

type Action = 'enable' | 'show' | 'regenerate' | 'disable';

/**
 * Settings > Security: two-factor on or off, recovery codes. Every change asks for the password first;
 * on a confirmed authenticator, showing or regenerating the recovery codes and turning it off also ask
 * for its current code (TwoFactorCodeDialog), as the password alone is not enough (DESIGN section 5).
 */
export function TwoFactorCard({ meta }: { meta: UserMeta | undefined }) {
  const { t } = useTranslation('security');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const { withConfirmation } = usePasswordConfirmation();
  const [authenticator, setAuthenticator] = useState<Authenticator | null>(null);
  const [shownCodes, setShownCodes] = useState<string[] | null>(null);
  const [asksCodeFor, setAsksCodeFor] = useState<Exclude<Action, 'enable'> | null>(null);
  const [busy, setBusy] = useState<Action | null>(null);

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
      try {
        const found = await withConfirmation(getAuthenticator);
        if (found) setAuthenticator(found);
      } catch (error) {
        // Turned on meanwhile (another tab): its key is not shown again; the card catches up.
        if (!isHttpError(error) || error.code !== ERROR_CODES.twoFactorAlreadyConfirmed) throw error;
        await refresh();
      }
    });

  // The password first, then the authenticator's code (TwoFactorCodeDialog).
  const askCode = (action: Exclude<Action, 'enable'>) =>
    run(action, async () => {
      if (await withConfirmation(async () => true)) setAsksCodeFor(action);
    });
  const closeCodeDialog = () => setAsksCodeFor(null);

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
              <Button onClick={() => askCode('show')} loading={busy === 'show'}>
                {t('twoFactor.showRecoveryCodes')}
              </Button>
              <Button onClick={() => askCode('regenerate')} loading={busy === 'regenerate'}>
                {t('twoFactor.regenerate')}
              </Button>
              <Button danger onClick={() => askCode('disable')} loading={busy === 'disable'}>
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
      <TwoFactorCodeDialog
        open={asksCodeFor === 'show'}
        name="recovery-codes-show"
        title={t('twoFactor.showRecoveryCodes')}
        okText={t('twoFactor.showOk')}
        codeHint={t('twoFactor.showCodeHint')}
        onSubmit={async (proof) => {
          setShownCodes(await getRecoveryCodes('code' in proof ? (proof.code ?? '') : ''));
          void refresh();
        }}
        onClose={closeCodeDialog}
      />
      <TwoFactorCodeDialog
        open={asksCodeFor === 'regenerate'}
        name="recovery-codes-regenerate"
        title={t('twoFactor.regenerateConfirmTitle')}
        okText={t('twoFactor.regenerateOk')}
        warning={t('twoFactor.regenerateConfirm')}
        codeHint={t('twoFactor.regenerateCodeHint')}
        recoveryHint={t('twoFactor.regenerateRecoveryHint')}
        onSubmit={async (proof) => {
          setShownCodes(await regenerateRecoveryCodes(proof));
          message.success(t('twoFactor.regenerated'));
          void refresh();
        }}
        onClose={closeCodeDialog}
      />
      <TwoFactorCodeDialog
        open={asksCodeFor === 'disable'}
        name="two-factor-disable"
        title={t('twoFactor.disableTitle')}
        okText={t('twoFactor.disableOk')}
        danger
        warning={t('twoFactor.disableWarning')}
        codeHint={t('twoFactor.disableCodeHint')}
        recoveryHint={t('twoFactor.disableRecoveryHint')}
        onSubmit={async (proof) => {
          await disableTwoFactor(proof);
          message.success(t('twoFactor.disabled'));
          void refresh();
        }}
        onClose={closeCodeDialog}
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
