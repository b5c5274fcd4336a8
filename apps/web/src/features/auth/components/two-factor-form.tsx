import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isHttpError } from '../../../lib/http.ts';
import { useTwoFactorChallenge } from '../api/two-factor-challenge.ts';
import { FormField, SubmitButton } from './form-field.tsx';

/** The second step of a login when the user has two-factor: a 6-digit code, or a recovery code. */
export function TwoFactorForm({ onDone, onExpired }: { onDone: () => void; onExpired: () => void }) {
  const { t } = useTranslation('auth');
  const [useRecovery, setUseRecovery] = useState(false);
  const [value, setValue] = useState('');
  const [error, setError] = useState<string>();
  const challenge = useTwoFactorChallenge();
  const field = useRecovery ? 'recovery_code' : 'code';

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const entered = value.trim();
    const invalid = useRecovery
      ? entered
        ? undefined
        : t('twoFactor.recoveryRequired')
      : !entered
        ? t('twoFactor.codeRequired')
        : /^\d{6}$/.test(entered)
          ? undefined
          : t('twoFactor.codeLength');
    setError(invalid);
    if (invalid) return;
    try {
      await challenge.mutateAsync(useRecovery ? { recovery_code: entered } : { code: entered });
      onDone();
    } catch (failure) {
      if (!isHttpError(failure)) throw failure;
      if (failure.status === 401) return onExpired();
      setError(failure.fieldErrors()[field] ?? failure.message);
    }
  };

  return (
    <form className="login-form" noValidate onSubmit={submit}>
      <p className="login-hint">{useRecovery ? t('twoFactor.recoveryHint') : t('twoFactor.codeHint')}</p>
      {useRecovery ? (
        <FormField
          key="recovery_code"
          id="recovery_code"
          label={t('twoFactor.recoveryCode')}
          error={error}
          autoComplete="off"
          value={value}
          onChange={(event) => setValue(event.target.value)}
          autoFocus
        />
      ) : (
        <FormField
          key="code"
          id="code"
          label={t('twoFactor.code')}
          error={error}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          value={value}
          onChange={(event) => setValue(event.target.value.replace(/\D/g, ''))}
          autoFocus
        />
      )}
      <SubmitButton isBusy={challenge.isPending}>{t('twoFactor.submit')}</SubmitButton>
      <div className="login-links">
        <button
          type="button"
          className="link-button"
          onClick={() => {
            setValue('');
            setError(undefined);
            setUseRecovery(!useRecovery);
          }}
        >
          {useRecovery ? t('twoFactor.useCode') : t('twoFactor.useRecovery')}
        </button>
        <button type="button" className="link-button" onClick={onExpired}>
          {t('twoFactor.back')}
        </button>
      </div>
    </form>
  );
}
