import type { createAppRouter } from './router.tsx';
import { loginPathFor } from '../lib/auth/session.ts';
import { configureHttp } from '../lib/http.ts';

/** The HTTP client navigates with the router and, after "log in again", forgets the session. */
export function wireHttpClient(router: ReturnType<typeof createAppRouter>): void {
  configureHttp({
    navigate: (path) => void router.navigate(path),
    onSessionExpired: () => {
      const { pathname, search } = router.state.location;
      // The login page forgets the session once the pages that used it are gone.
      void router.navigate(loginPathFor(pathname + search), { replace: true });
    },
  });
}
