import { SafetyOutlined } from '@ant-design/icons';
import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/**
 * "This feature is not enabled yet": shown where the server answered 400 two_factor_required, or before
 * a money-moving form for a user without two-factor, with the way to the Security page.
 */
export function TwoFactorRequired({ compact = false }: { compact?: boolean }) {
  const { t } = useTranslation('common');
  const link = (
    <Link to="/setting/accountSecurity">
      <Button type="primary" icon={<SafetyOutlined />}>
        {t('twoFactorRequired.action')}
      </Button>
    </Link>
  );
  if (compact) {
    return (
      <div className="two-factor-required" role="alert">
        <p>
          <strong>{t('twoFactorRequired.title')}</strong> {t('twoFactorRequired.description')}
        </p>
        {link}
      </div>
    );
  }
  return (
    <Result
      status="warning"
      icon={<SafetyOutlined />}
      title={t('twoFactorRequired.title')}
      subTitle={t('twoFactorRequired.description')}
      extra={link}
    />
  );
}
