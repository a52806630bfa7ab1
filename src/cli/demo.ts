/**
 * `npm run demo`: a captioned video from this machine alone, in about half a minute. It uses the
 * service at PUBLIC_URL (http://HOST:PORT), or starts one when none answers there and keeps it
 * running for the links until Ctrl-C; makes a user with the operator CLI, a sample talking video
 * (recorded speech or espeak-ng, and ffmpeg, in DATA_DIR/demo), uploads it, waits for the export and prints the links.
 * `--exit` stops a service it started once the links are printed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { childEnv, loadConfig } from '../config.ts';
import { ProgramError, startProgram, type RunningProgram } from '../media/program.ts';
import { createDemoUser, health, recordedSpeechFiles, runDemo, sampleMedia, waitHealthy } from './demo-run.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const usage = 'usage: npm run demo [-- --exit]\n';
const say = (line: string) => process.stderr.write(`${line}\n`);

/** The service the demo starts: loopback media URLs allowed, so the README's URL examples work with the demo's links. */
function startService(logFile: string): RunningProgram {
  const env = childEnv({
    ALLOW_PRIVATE_NETWORK: '1',
    VIDEO_PLATFORM_HOSTS: 'youtube.com,www.youtube.com,m.youtube.com,youtu.be,vimeo.com,127.0.0.1',
  });
  const log = fs.openSync(logFile, 'a');
  const child = startProgram(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src/main.ts'), 'all'], { cwd: ROOT, env, logFd: log });
  fs.closeSync(log);
  return child;
}

async function stopService(child: RunningProgram): Promise<void> {
  child.terminate('SIGTERM');
  await child.done.catch(() => undefined);
}

async function main(): Promise<number> {
  let exitAfter = false;
  try {
    const { values } = parseArgs({ options: { exit: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } });
    if (values.help) {
      process.stdout.write(usage);
      return 0;
    }
    exitAfter = !!values.exit;
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n${usage}`);
    return 2;
  }
  const config = loadConfig();
  const baseUrl = config.publicUrl;
  const t0 = Date.now();
  fs.mkdirSync(config.dataDir, { recursive: true });

  let service: RunningProgram | undefined;
  const state = await health(baseUrl);
  if (state === 'unreachable') {
    const logFile = path.join(config.dataDir, 'demo-service.log');
    say(`no service answers at ${baseUrl}: starting one (npm start; its log: ${path.relative(process.cwd(), logFile)})`);
    service = startService(logFile);
  } else say(`using the service at ${baseUrl}`);
  const stopping = async () => {
    if (service) await stopService(service);
    process.exit(130);
  };
  process.once('SIGINT', stopping);
  process.once('SIGTERM', stopping);

  try {
    say(`making the sample video (${recordedSpeechFiles() ? 'recorded speech of pocketsphinx-testdata' : 'espeak-ng'} and ffmpeg)`);
    const mediaDir = path.join(config.dataDir, 'demo');
    const [media] = await Promise.all([
      sampleMedia(mediaDir),
      (async () => {
        if (state === 'ok') return;
        const exited = () => !!service && !service.running;
        // the first start applies the migrations: up to a minute on a slow disk
        if (!(await waitHealthy(baseUrl, 180_000, exited)))
          throw new Error(`the service at ${baseUrl} did not become healthy${service ? ' (see data/demo-service.log)' : ''}`);
      })(),
    ]);
    say('making a user with the operator CLI (npm run admin -- user create)');
    const user = await createDemoUser(childEnv());
    say('uploading the sample video; the service transcribes it and renders a captioned export');
    const links = await runDemo({ baseUrl, apiKey: user.apiKey, media, onProgress: say });
    const rel = (p: string) => path.relative(process.cwd(), p) || '.';
    const curl = (url: string) => `curl -H "x-api-key: ${user.apiKey}" '${url}'`;
    process.stdout.write(
      [
        '',
        `The demo is ready (${Math.round((Date.now() - t0) / 1000)} s).`,
        '',
        `  console         ${links.consoleUrl}   (sign in with the API key)`,
        `  API key         ${user.apiKey}   (user ${user.email})`,
        `  project         ${links.projectId}`,
        `  video           ${links.directUrl}`,
        `  download        ${links.downloadUrl}`,
        `  preview         ${links.previewUrl ?? '(none)'}`,
        `  captions, SRT   ${curl(links.srtUrl)}`,
        `  captions, VTT   ${curl(links.vttUrl)}`,
        '',
        `The README's examples run with these (the sample files are in ${rel(mediaDir)}):`,
        '',
        `export KEY='${user.apiKey}' PROJECT='${links.projectId}' PROFILE='${user.profileId}' \\`,
        `  VIDEO_URL='${links.directUrl}' \\`,
        `  MUSIC_URL='${links.musicUrl}'`,
        '',
        service
          ? exitAfter
            ? 'The service the demo started stops now (--exit).'
            : `The service keeps running for these links (log: ${rel(path.join(config.dataDir, 'demo-service.log'))}); Ctrl-C stops it.`
          : `The examples that fetch VIDEO_URL or MUSIC_URL need the service at ${baseUrl} started as ALLOW_PRIVATE_NETWORK=1 VIDEO_PLATFORM_HOSTS=${new URL(links.directUrl).hostname} npm start (restart it so if it was not).`,
        '',
      ].join('\n'),
    );
  } catch (e) {
    if (service) await stopService(service);
    throw e;
  }
  if (!service) return 0;
  if (exitAfter) {
    await stopService(service);
    return 0;
  }
  // keeps running until Ctrl-C (handled above) or the service ends by itself
  return service.done.then(
    () => 0,
    (e: unknown) => (e instanceof ProgramError && e.code) || 1,
  );
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    process.stderr.write(`demo: ${(e as Error).message}\n`);
    process.exit(1);
  },
);
