import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import type { Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { rendererBundleSize } from './scripts/renderer-bundle-size';

export default defineConfig({
  main: {
    build: {
      rollupOptions: {
        input: {
          index: resolve(__dirname, 'electron/main/index.ts'),
          // A worker thread's own entry, started beside the bundle as ./verdict-worker.js (runs/verdict-thread.ts).
          'verdict-worker': resolve(__dirname, 'electron/engine/runs/verdict-worker.ts'),
          // A large CSV export's worker, ./export-half-worker.js, loading only what its half needs (runs/export-half-thread.ts).
          'export-half-worker': resolve(__dirname, 'electron/engine/runs/export-half-worker.ts'),
        },
      },
    },
  },
  preload: {
    // A sandboxed preload must be CommonJS.
    build: {
      rollupOptions: {
        input: { index: resolve(__dirname, 'electron/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(__dirname, 'renderer'),
    build: {
      rollupOptions: { input: { index: resolve(__dirname, 'renderer/index.html') } },
      // electron-vite leaves the renderer unminified by default; the window loads it from disk, but it is also
      // what the browser host serves, and a third smaller gzipped.
      minify: true,
    },
    plugins: [react(), devServerCsp(), rendererBundleSize()],
  },
});

/**
 * `electron-vite dev` only: the dev server injects inline scripts (React refresh) and styles, and talks to its
 * client over a WebSocket. Built apps keep index.html's strict policy untouched.
 */
function devServerCsp(): Plugin {
  return {
    name: 'matchdesk-dev-server-csp',
    apply: 'serve',
    transformIndexHtml: (html) =>
      html
        .replace("script-src 'self'", "script-src 'self' 'unsafe-inline'")
        .replace("style-src 'self'", "style-src 'self' 'unsafe-inline'")
        .replace("connect-src 'self'", "connect-src 'self' ws://localhost:* http://localhost:*"),
  };
}
