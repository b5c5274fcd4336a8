import { useTranslation } from 'react-i18next';
import { PageContainer } from '../../../components/page-container.tsx';
import { useUserMeta } from '../api/get-user-meta.ts';
import { ChangePasswordCard } from '../components/change-password-card.tsx';
import { SecurityLogCard } from '../components/security-log-card.tsx';
import { SessionsCard } from '../components/sessions-card.tsx';
import { TwoFactorCard } from '../components/two-factor-card.tsx';
import '../components/security.css';

/** Settings > Security: two-factor, password, signed-in devices and the security log. */
export default function AccountSecurityPage() {
  const { t } = useTranslation('routes');
  const meta = useUserMeta();
  return (
    <PageContainer title={t('accountSecurity')}>
      <TwoFactorCard meta={meta.data} />
      <ChangePasswordCard />
      <SessionsCard />
      <SecurityLogCard />
    </PageContainer>
  );
}
