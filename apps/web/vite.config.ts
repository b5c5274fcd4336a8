import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { listKitChunkName } from './src/components/list-page/chunk.ts';
import { textsChunkName } from './src/i18n/namespaces.ts';

export default defineConfig({
  plugins: [react()],
  server: {
    port: 5173,
    proxy: { '/api': 'http://localhost:8080', '/healthz': 'http://localhost:8080' },
  },
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    sourcemap: false,
    chunkSizeWarningLimit: 1500,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // The texts of a language in two files (the entry's namespaces, the layout's) rather than one each.
            { name: textsChunkName, debugName: 'texts' },
            // The list kit in one chunk shared by the list pages (DESIGN 8: 120 KB gzip of its own); only
            // what it matches, not what that imports (React and antd's core stay with the layout).
            { name: listKitChunkName, debugName: 'list-kit', includeDependenciesRecursively: false },
            // dayjs and its plugins in a chunk of their own that imports nothing of ours: left to the bundler
            // they landed in a page's chunk that imports the kit, and a direct load of /lineExport then ran
            // the kit's `dayjs.extend(utc)` before the plugin's chunk had run ("is not a function").
            { name: 'dayjs', test: /[\\/]node_modules[\\/]dayjs[\\/]/ },
          ],
        },
      },
    },
  },
});
