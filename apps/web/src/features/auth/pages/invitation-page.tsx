import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { LogoMark } from '../../../components/logo-mark.tsx';
import { safeRedirect } from '../../../lib/auth/session.ts';
import { isHttpError } from '../../../lib/http.ts';
import { useAcceptInvitation } from '../api/accept-invitation.ts';
import { useInvitation } from '../api/get-invitation.ts';
import { FormField, SubmitButton } from '../components/form-field.tsx';
import { LanguageLinks } from '../components/language-links.tsx';
import './login-page.css';

// The login page's rule (UpdatePasswordBodySchema's minimum), kept here without zod: the entry loads none.
const PASSWORD_MIN = 8;

type Errors = { name?: string; password?: string; password_confirmation?: string; form?: string };

/**
 * /invite/:token (DESIGN 16): an invited colleague sees the merchant and their address, types a name and a
 * password, and is signed in. A used, replaced, expired or unknown link says so, and changes nothing.
 */
export default function InvitationPage() {
  const { t } = useTranslation(['auth', 'common']);
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const invitation = useInvitation(token);
  const accept = useAcceptInvitation();
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [closed, setClosed] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found: Errors = {
      name: name.trim() ? undefined : t('invitation.nameRequired'),
      password:
        password.length === 0
          ? t('passwordRequired')
          : password.length < PASSWORD_MIN
            ? t('invitation.passwordMin', { count: PASSWORD_MIN })
            : undefined,
      password_confirmation: confirmation === password ? undefined : t('invitation.mismatch'),
    };
    setErrors(found);
    if (found.name || found.password || found.password_confirmation) return;
    try {
      await accept.mutateAsync({ token, name: name.trim(), password, password_confirmation: confirmation });
      navigate(safeRedirect(null), { replace: true });
    } catch (error) {
      if (!isHttpError(error)) throw error;
      if (error.isShown) return;
      if (error.status === 404 || error.status === 410) return setClosed(error.message);
      const fields = error.fieldErrors();
      setErrors({
        name: fields.name,
        password: fields.password,
        form: fields.name || fields.password ? undefined : error.message,
      });
    }
  };

  const failed = invitation.error && isHttpError(invitation.error) ? invitation.error.message : null;
  const closedText = closed ?? failed;

  return (
    <main className="login-page">
      <div className="login-page__language">
        <LanguageLinks />
      </div>
      <section className="login-card" aria-busy={invitation.isLoading}>
        <div className="login-card__brand">
          <LogoMark size={40} />
          <div>
            <h1 className="login-card__title">{t('common:appName')}</h1>
            <p className="login-card__subtitle">{t('invitation.title')}</p>
          </div>
        </div>
        {invitation.isLoading && <p className="login-card__subtitle">{t('invitation.loading')}</p>}
        {closedText && (
          <>
            <div className="login-notice" role="alert">
              {closedText}
            </div>
            <a
              href="/login"
              className="submit-button"
              style={{ textAlign: 'center', textDecoration: 'none' }}
            >
              {t('invitation.toLogin')}
            </a>
          </>
        )}
        {invitation.data && !closedText && (
          <form className="login-form" noValidate onSubmit={submit}>
            <p className="invitation-summary" data-testid="invitation-summary">
              {t('invitation.summary', {
                merchant: invitation.data.merchant.name,
                no: invitation.data.merchant.no,
                role: invitation.data.role,
              })}
            </p>
            <FormField
              id="email"
              label={t('invitation.email')}
              value={invitation.data.email}
              readOnly
              disabled
            />
            <FormField
              id="name"
              label={t('invitation.name')}
              error={errors.name}
              autoComplete="name"
              value={name}
              onChange={(event) => setName(event.target.value)}
              autoFocus
            />
            <FormField
              id="password"
              type="password"
              label={t('password')}
              error={errors.password}
              autoComplete="new-password"
              placeholder={t('invitation.passwordHint', { count: PASSWORD_MIN })}
              value={password}
              onChange={(event) => setPassword(event.target.value)}
            />
            <FormField
              id="password_confirmation"
              type="password"
              label={t('invitation.confirm')}
              error={errors.password_confirmation}
              autoComplete="new-password"
              value={confirmation}
              onChange={(event) => setConfirmation(event.target.value)}
            />
            {errors.form && (
              <div className="login-notice" role="alert">
                {errors.form}
              </div>
            )}
            <SubmitButton isBusy={accept.isPending}>{t('invitation.submit')}</SubmitButton>
            <p className="invitation-note">{t('invitation.twoFactorNote')}</p>
          </form>
        )}
      </section>
    </main>
  );
}
