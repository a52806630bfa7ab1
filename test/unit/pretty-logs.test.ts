/** LOG_FORMAT=pretty: a log line of words for a person, an error's stack under it; JSON stays the default. */
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';

describe('createLogger', () => {
  it('writes words with the time, level, role, message and fields, the stack of an error under it', () => {
    const written: string[] = [];
    const log = createLogger('info', { role: 'worker' }, { write: (s: string) => void written.push(s) }, 'pretty');
    log.info({ jobId: 'j1', took: 3.5, tags: ['a'] }, 'job finished');
    log.error({ err: new Error('ffmpeg exited 1') }, 'render failed');
    log.debug('not at info');
    expect(written).toHaveLength(2);
    expect(written[0]).toMatch(/^\d\d:\d\d:\d\d info {2}\[worker\] job finished {2}jobId=j1 took=3.5 tags=\["a"\]\n$/);
    expect(written[1]).toMatch(/^\d\d:\d\d:\d\d ERROR \[worker\] render failed\n {2}Error: ffmpeg exited 1\n\s+at /);
  });

  it('writes one JSON object a line by default', () => {
    const written: string[] = [];
    const log = createLogger('info', { role: 'server' }, { write: (s: string) => void written.push(s) });
    log.info({ a: 1 }, 'hello');
    expect(JSON.parse(written[0])).toMatchObject({ level: 30, role: 'server', a: 1, msg: 'hello' });
  });
});
