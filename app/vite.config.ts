// The dashboard's build: app/ into dist/app, served by the service at /app/ (src/modules/dashboard).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const here = path.dirname(fileURLToPath(import.meta.url));

export default defineConfig({
  root: here,
  base: '/app/',
  plugins: [react()],
  logLevel: 'warn',
  build: {
    outDir: path.join(here, '..', 'dist', 'app'),
    emptyOutDir: true,
    target: 'es2022',
    // no inline <script> or data: module may reach the page (the CSP refuses them)
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    chunkSizeWarningLimit: 1500,
    reportCompressedSize: false,
  },
});
