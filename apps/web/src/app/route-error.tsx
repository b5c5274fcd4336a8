import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { isHttpError } from '../lib/http.ts';

/**
 * A page that failed to load (a new version was deployed, the network dropped) or a bug while rendering,
 * with the offer to reload. Plain elements: it is in the entry chunk and must work when nothing more can
 * be loaded.
 */
export function PageLoadFailed() {
  const { t } = useTranslation('errors');
  return (
    <div className="route-error" role="alert">
      <h2>{t('pageLoadFailed.title')}</h2>
      <p>{t('pageLoadFailed.description')}</p>
      <button type="button" onClick={() => window.location.reload()}>
        {t('pageLoadFailed.reload')}
      </button>
    </div>
  );
}

export function RouteError() {
  const error = useRouteError();
  // An HTTP failure was already shown by the HTTP client; anything else is a bug worth seeing.
  if (!isRouteErrorResponse(error) && !isHttpError(error)) console.error(error);
  return <PageLoadFailed />;
}
