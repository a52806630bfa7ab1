import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// The web console: built into web/dist, served at / by src/http/console.ts. Its
// scripts and styles go under /console/ so that they share no path with the API.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  // JSX through esbuild's automatic runtime: no Babel plugin to install
  esbuild: { jsx: 'automatic' },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsDir: 'console',
    // the fonts are the system's (Pico's stack); nothing is fetched from elsewhere
    assetsInlineLimit: 0,
    reportCompressedSize: false,
  },
  server: { proxy: { '/graphql': { target: 'http://127.0.0.1:4000', ws: true }, '/files': 'http://127.0.0.1:4000' } },
});
