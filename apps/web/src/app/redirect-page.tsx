import { Navigate, useLocation, useParams } from 'react-router';

/** /redirect/<path>?<query> -> /<path>?<query>, replacing itself in the history. */
export default function RedirectPage() {
  const path = useParams()['*'] ?? '';
  const { search } = useLocation();
  return <Navigate to={`/${path}${search}`} replace />;
}
