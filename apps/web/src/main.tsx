import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { entryTextsLoaded } from './i18n/index.ts';
import './styles.css';
import { AppProviders } from './app/providers.tsx';
import { createAppRouter } from './app/router.tsx';
import { wireHttpClient } from './app/wire-http.ts';

// The router starts loading the page while the texts load; the first render has both.
const router = createAppRouter();
wireHttpClient(router);

const render = () =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <AppProviders>
        <RouterProvider router={router} />
      </AppProviders>
    </StrictMode>,
  );
void entryTextsLoaded.then(render, render);
