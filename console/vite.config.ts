import { defineConfig } from 'vite';

// The web console: React + TypeScript, built by Vite into console/dist and served by the API at /console
// (api/routes/console/static.ts). Vite 8 compiles TSX itself (tsconfig "jsx": "react-jsx"), so no plugin.
export default defineConfig({
  base: '/console/',
  build: {
    target: 'es2022',
    // Everything external and same-origin: the console's CSP forbids inline scripts and styles.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    sourcemap: false,
    reportCompressedSize: false,
  },
});
