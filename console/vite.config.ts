import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** The console is served by the service under /console (rest/console.routes.ts); hashed files live in assets/. */
export default defineConfig({
  root: import.meta.dirname,
  base: '/console/',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsDir: 'assets',
    target: 'es2022',
    reportCompressedSize: false,
    // dist/.vite/manifest.json: what the first load fetches (console/build.ts `firstLoad`).
    manifest: true,
  },
  server: {
    // `npx vite console` during development: the service runs beside it on :3000.
    proxy: { '/graphql': 'http://127.0.0.1:3000', '/auth': 'http://127.0.0.1:3000' },
  },
});
