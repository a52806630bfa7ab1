/**
 * How ffmpeg opens an input: a local file as it is; a URL (a remote store's
 * presigned GET, Storage.mediaSource) over HTTP(S) alone, never another
 * protocol a crafted file could name, reconnecting after a dropped
 * connection, and failing rather than waiting for ever on a silent one.
 * Seeking (`-ss` before `-i`) reads only the ranges the window needs.
 */
export function inputOptions(input: string): string[] {
  if (!/^https?:\/\//i.test(input)) return [];
  return [
    '-protocol_whitelist',
    'http,https,tcp,tls',
    '-reconnect',
    '1',
    '-reconnect_on_network_error',
    '1',
    '-reconnect_delay_max',
    '10',
    // microseconds without a byte before a read gives up (and the connection is made again)
    '-rw_timeout',
    '15000000',
  ];
}

/**
 * `text` (ffmpeg's words about an input) without the query of any URL in it:
 * a presigned URL's signature and credential never reach a failure reason,
 * a webhook or a log.
 */
export const withoutUrlQueries = (text: string) => text.replace(/(https?:\/\/[^\s?]+)\?[^\s|'":]*/gi, '$1');
