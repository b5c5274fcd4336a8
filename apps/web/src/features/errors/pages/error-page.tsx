import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { AntdConfig } from '../../../app/antd-config.tsx';

/** /401, /403 and /404: outside the layout, reachable with or without a session. */
export function ErrorPage({ status }: { status: 401 | 403 | 404 }) {
  const { t } = useTranslation('errors');
  return (
    <AntdConfig>
      <main className="error-page">
        <Result
          status={status === 401 ? 'warning' : status === 403 ? '403' : '404'}
          title={String(status)}
          subTitle={t(`pages.${status}`)}
          extra={
            status === 401 ? (
              <Link to="/login">
                <Button type="primary">{t('pages.login')}</Button>
              </Link>
            ) : (
              <Link to="/">
                <Button type="primary">{t('pages.backHome')}</Button>
              </Link>
            )
          }
        />
      </main>
    </AntdConfig>
  );
}
