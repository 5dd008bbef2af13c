import { defineConfig } from 'vite';

// The page and its Web Worker, built into the directory wrangler.jsonc serves as static assets.
export default defineConfig({
  root: 'src/page',
  publicDir: false,
  build: { outDir: '../../dist/page', emptyOutDir: true, target: 'es2022' },
  worker: { format: 'es' },
});
