import { CustomerServiceOutlined, ReloadOutlined } from '@ant-design/icons';
import { Button, Card, Empty, Result, Skeleton } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useHasPerm } from '../../../components/has-perm.tsx';
import { PageContainer } from '../../../components/page-container.tsx';
import { TwoFactorRequired } from '../../../components/two-factor-required.tsx';
import { useCurrentUser } from '../../../lib/auth/get-current-user.ts';
import { usePayoutChannels } from '../api/get-payout-channels.ts';
import { PayoutForm } from '../components/payout-form.tsx';

/** No open payout channel: nothing can be sent, and only customer service can change that (spec 5). */
function NoChannels() {
  const { t } = useTranslation('payouts');
  const canContact = useHasPerm('contact:view');
  return (
    <Empty
      image={Empty.PRESENTED_IMAGE_SIMPLE}
      data-testid="payout-no-channels"
      description={
        <>
          <strong>{t('noChannels.title')}</strong>
          <br />
          {t('noChannels.description')}
        </>
      }
    >
      {canContact && (
        <Link to="/contactUs">
          <Button icon={<CustomerServiceOutlined />}>{t('noChannels.contact')}</Button>
        </Link>
      )}
    </Empty>
  );
}

/** Send money > Send money: a bank payout from the available balance. */
export default function PayoutApplyPage() {
  const { t } = useTranslation(['payouts', 'routes']);
  const channels = usePayoutChannels();
  const user = useCurrentUser();

  let body;
  if (channels.isPending) body = <Skeleton active paragraph={{ rows: 8 }} />;
  else if (channels.isError) {
    body = (
      <Result
        status="warning"
        title={t('loadFailed')}
        extra={
          <Button icon={<ReloadOutlined />} onClick={() => void channels.refetch()}>
            {t('retry')}
          </Button>
        }
      />
    );
  } else if (channels.data.channels.length === 0) body = <NoChannels />;
  // Payouts need both factors: without two-factor the server refuses whatever is typed.
  else if (user && !user.two_factor_enabled) body = <TwoFactorRequired />;
  else body = <PayoutForm channels={channels.data} />;

  return (
    <PageContainer title={t('routes:transfersApply')}>
      <Card>{body}</Card>
    </PageContainer>
  );
}
