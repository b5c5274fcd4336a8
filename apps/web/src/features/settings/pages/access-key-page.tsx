import { useTranslation } from 'react-i18next';
import { HasPerm } from '../../../components/has-perm.tsx';
import { PageContainer } from '../../../components/page-container.tsx';
import { AccessKeyCard } from '../components/access-key-card.tsx';
import { IpWhitelistCard } from '../components/ip-whitelist-card.tsx';

/**
 * Settings > Access key (ROOT only): the gateway access key with its secrets, the default notify URL and,
 * as the spec puts the IP address under Settings beside it, the IP whitelist.
 */
export default function AccessKeyPage() {
  const { t } = useTranslation('routes');
  return (
    <PageContainer title={t('interfaceKey')}>
      <AccessKeyCard />
      <HasPerm perm="ip-whitelist:manage">
        <IpWhitelistCard />
      </HasPerm>
    </PageContainer>
  );
}
