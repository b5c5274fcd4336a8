import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
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
    // The texts of a language in two files (the entry's namespaces, the layout's) rather than one each.
    rolldownOptions: {
      output: { codeSplitting: { groups: [{ name: textsChunkName, debugName: 'texts' }] } },
    },
  },
});
