import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { isHttpError } from '../lib/http.ts';

/** A page that failed to load (a new version was deployed, the network dropped) or a bug while rendering. */
export function RouteError() {
  const error = useRouteError();
  const { t } = useTranslation('errors');
  // An HTTP failure was already shown by the HTTP client; anything else is a bug worth seeing.
  if (!isRouteErrorResponse(error) && !isHttpError(error)) console.error(error);
  return (
    <Result
      status="warning"
      title={t('pageLoadFailed.title')}
      subTitle={t('pageLoadFailed.description')}
      extra={
        <Button type="primary" onClick={() => window.location.reload()}>
          {t('pageLoadFailed.reload')}
        </Button>
      }
    />
  );
}
