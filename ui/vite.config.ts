// Builds the web view into ui/dist, which `flowops up` serves at /ui/ from disk (no CDN, no
// network at run time). `npm run build` runs this beside tsc (scripts/build-ui.mjs).
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/ui/',
  // Preact's automatic JSX runtime, without a plugin: Vite's own transformer does it.
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022', reportCompressedSize: false },
  logLevel: 'warn',
});
