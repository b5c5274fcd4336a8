import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import './i18n/index.ts';
import './styles.css';
import { AppProviders } from './app/providers.tsx';
import { createAppRouter } from './app/router.tsx';
import { wireHttpClient } from './app/wire-http.ts';

const router = createAppRouter();
wireHttpClient(router);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>
  </StrictMode>,
);
