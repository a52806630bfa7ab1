// Rebuilds the Whisper engine's native addon (smart-whisper, an optional dependency) for
// this CPU's vector instructions. whisper.cpp picks AVX, AVX2, FMA, F16C, ... at compile time
// and node-gyp's default flags name none of them: built as npm builds it, the engine runs
// about 19 times slower. npm gives an install script no way to pass compiler flags to a
// dependency's build, so `npm ci` builds it plainly and this postinstall step builds it
// again with -march=native (or WHISPER_CFLAGS, to build for another machine, for example
// WHISPER_CFLAGS=-march=x86-64-v3). A stamp beside the addon records the flags, so a later
// install that left the addon in place does not rebuild it. `npm run whisper:build` forces it.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const pkg = path.join(root, 'node_modules/smart-whisper');
const addon = path.join(pkg, 'build/Release/smart-whisper.node');
const stamp = path.join(pkg, 'build/native-flags.json');
const flags = process.env.WHISPER_CFLAGS || '-march=native';
const force = process.argv.includes('--force');

if (!fs.existsSync(path.join(pkg, 'package.json'))) {
  console.log('whisper: smart-whisper is not installed (an optional dependency that could not be built here); TRANSCRIBER=whisper is unavailable');
  process.exit(0);
}
const built = fs.existsSync(stamp) ? JSON.parse(fs.readFileSync(stamp, 'utf8')) : undefined;
if (!force && built?.flags === flags && fs.existsSync(addon)) process.exit(0);

console.log(`whisper: building whisper.cpp with ${flags}`);
const t0 = Date.now();
// through npm, which hands the build its own node-gyp and settings (nodedir, ...); the
// flags reach the compiler through the environment, which npm passes on
const env = { ...process.env, CFLAGS: flags, CXXFLAGS: flags, JOBS: 'max' };
const npm = process.env.npm_execpath ? [process.execPath, [process.env.npm_execpath]] : ['npm', []];
const r = spawnSync(npm[0], [...npm[1], 'rebuild', 'smart-whisper', '--foreground-scripts', '--loglevel=error'], {
  cwd: root,
  env,
  stdio: ['ignore', 'ignore', 'pipe'],
});
if (r.status !== 0) {
  // the plainly built addon is gone with the failed rebuild: the engine will say it is not installed
  process.stderr.write(
    r.stderr
      ?.toString()
      .split('\n')
      .filter((l) => /error|ERR!/i.test(l))
      .slice(-15)
      .join('\n') ?? '',
  );
  console.warn(`\nwhisper: the build with ${flags} failed (exit ${r.status}); TRANSCRIBER=whisper is unavailable until \`npm run whisper:build\` succeeds`);
  process.exit(0);
}
fs.writeFileSync(stamp, `${JSON.stringify({ flags, builtAt: new Date().toISOString() })}\n`);
console.log(`whisper: built in ${Math.round((Date.now() - t0) / 1000)} s`);
