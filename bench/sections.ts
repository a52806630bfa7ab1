import type { Row } from './row.js';
import { clips } from './clips.js';
import { concurrency } from './concurrency.js';
import { faces } from './faces.js';
import { foundation } from './foundation.js';
import { library } from './library.js';
import { load } from './load.js';
import { projects } from './projects.js';
import { publishing } from './publishing.js';
import { render } from './render.js';
import { storage } from './storage.js';
import { subscribers } from './subscribers.js';
import { transcription } from './transcription.js';
import { transcriptionDictionary } from './transcription-dictionary.js';

/** Benchmark sections in the order they run. */
export const sections: Record<string, () => Promise<Row[]>> = {
  foundation,
  library,
  projects,
  render,
  faces,
  clips,
  publishing,
  transcription,
  concurrency,
  storage,
  subscribers,
  load,
  'transcription-dictionary': transcriptionDictionary,
};
