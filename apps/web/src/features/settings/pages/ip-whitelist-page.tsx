import { useTranslation } from 'react-i18next';
import { PageContainer } from '../../../components/page-container.tsx';
import { IpWhitelistCard } from '../components/ip-whitelist-card.tsx';

/** Settings > IP whitelist: the same form as on the access key page, under a menu entry of its own. */
export default function IpWhitelistPage() {
  const { t } = useTranslation('routes');
  return (
    <PageContainer title={t('ipWhitelist')}>
      <IpWhitelistCard titled={false} />
    </PageContainer>
  );
}
