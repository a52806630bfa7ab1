// Builds the web console (web/) into web/dist, which the server serves at /
// (src/http/console.ts). Runs after `npm install`; an install without the dev
// dependencies has no Vite, and the server then says how to build the console.
import { fileURLToPath } from 'node:url';

const configFile = fileURLToPath(new URL('../web/vite.config.ts', import.meta.url));
let vite;
try {
  vite = await import('vite');
} catch {
  console.warn('web console: Vite is not installed (dev dependencies left out), so web/dist is not built');
  process.exit(0);
}
const started = performance.now();
await vite.build({ configFile, logLevel: 'warn' });
console.log(`web console: built web/dist in ${((performance.now() - started) / 1000).toFixed(1)} s`);
