/**
 * `npm run model -- <name> [--dir <folder>]`: downloads one of whisper.cpp's ggml models
 * (whisper-models.ts) into <DATA_DIR>/models, or --dir, and prints the WHISPER_MODEL line to
 * set. WHISPER_MODEL_BASE_URL replaces where the models are fetched from (a mirror).
 * Exit code 2 for a usage error, 1 for a failed download.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig, whisperModelBaseUrl } from '../config.ts';
import { downloadWhisperModel, WHISPER_MODELS } from '../media/transcription/whisper-models.ts';

const list = WHISPER_MODELS.map((m) => `  ${m.name.padEnd(14)} ${m.size}`).join('\n');
const usage = `usage: npm run model -- <name> [--dir <folder>]\n\nmodels (whisper.cpp's ggml files; *.en are English-only):\n${list}\n`;

async function main(): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ options: { dir: { type: 'string' }, help: { type: 'boolean', short: 'h' } }, allowPositionals: true });
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n${usage}`);
    return 2;
  }
  const [name, ...extra] = parsed.positionals;
  if (parsed.values.help) {
    process.stdout.write(usage);
    return 0;
  }
  if (!name || extra.length > 0) {
    process.stderr.write(usage);
    return 2;
  }
  if (!WHISPER_MODELS.some((m) => m.name === name)) {
    process.stderr.write(`unknown model "${name}"\n${usage}`);
    return 2;
  }
  // with --dir the service's settings are not needed, nor checked: only the mirror is read
  const dir = path.resolve(parsed.values.dir ?? path.join(loadConfig().dataDir, 'models'));
  let shown = -1;
  const result = await downloadWhisperModel(name, {
    dir,
    baseUrl: whisperModelBaseUrl(),
    onProgress(received, total) {
      const tenth = total ? Math.floor((received / total) * 10) : Math.floor(received / 50_000_000);
      if (tenth === shown) return;
      shown = tenth;
      process.stderr.write(`${(received / 1e6).toFixed(0)} MB${total ? ` of ${(total / 1e6).toFixed(0)} MB` : ''}\n`);
    },
  });
  process.stderr.write(
    `${result.downloaded ? 'saved' : 'already there'}: ${result.model.type} (${result.model.weights}, ${result.model.tensors} tensors, SHA-1 checked)\n`,
  );
  process.stdout.write(`TRANSCRIBER=whisper\nWHISPER_MODEL=${result.path}\n`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    process.stderr.write(`${(e as Error).message}\n`);
    process.exit(1);
  },
);
