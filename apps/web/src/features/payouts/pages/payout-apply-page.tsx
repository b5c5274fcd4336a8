import { CustomerServiceOutlined } from '@ant-design/icons';
import { Button, Empty } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useHasPerm } from '../../../components/has-perm.tsx';
import { MoneyFormPage } from '../../../components/money-form-page.tsx';
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

/** Send money > Send money: a bank payout from the available balance (both factors needed). */
export default function PayoutApplyPage() {
  const { t } = useTranslation('routes');
  return (
    <MoneyFormPage
      title={t('transfersApply')}
      namespace="payouts"
      options={usePayoutChannels()}
      needsTwoFactor
      unavailable={(channels) => (channels.channels.length === 0 ? <NoChannels /> : null)}
      form={(channels) => <PayoutForm channels={channels} />}
    />
  );
}
