import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { LogoMark } from '../../../components/logo-mark.tsx';
import { resetSession, safeRedirect } from '../../../lib/auth/session.ts';
import { LanguageLinks } from '../components/language-links.tsx';
import { LoginForm } from '../components/login-form.tsx';
import { TwoFactorForm } from '../components/two-factor-form.tsx';
import './login-page.css';

export default function LoginPage() {
  const { t } = useTranslation(['auth', 'common']);
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [step, setStep] = useState<'credentials' | 'challenge'>('credentials');
  const [isExpired, setIsExpired] = useState(false);

  // Whoever was signed in before, nothing of theirs stays cached. Done here, once their pages are gone:
  // cleared under mounted pages, the cache would make them fetch again without a session.
  useEffect(() => resetSession(), []);

  const enter = () => navigate(safeRedirect(params.get('redirect')), { replace: true });

  return (
    <main className="login-page">
      <div className="login-page__language">
        <LanguageLinks />
      </div>
      <section className="login-card">
        <div className="login-card__brand">
          <LogoMark size={40} />
          <div>
            <h1 className="login-card__title">{t('common:appName')}</h1>
            <p className="login-card__subtitle">
              {step === 'credentials' ? t('subtitle') : t('twoFactor.title')}
            </p>
          </div>
        </div>
        {isExpired && step === 'credentials' && (
          <div className="login-notice" role="alert">
            {t('twoFactor.expired')}
          </div>
        )}
        {step === 'credentials' ? (
          <LoginForm
            onDone={({ two_factor }) => {
              setIsExpired(false);
              if (two_factor) setStep('challenge');
              else enter();
            }}
          />
        ) : (
          <TwoFactorForm
            onDone={enter}
            onExpired={() => {
              setIsExpired(true);
              setStep('credentials');
            }}
          />
        )}
      </section>
    </main>
  );
}
