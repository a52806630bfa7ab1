/**
 * The local S3-compatible server (s3rver) in a process of its own, for the
 * benches that drive a cluster: the store's work does not share the event
 * loop of the virtual users. Prints its endpoint as one JSON line, and stops
 * (its folder removed) on SIGTERM.
 */
import { startLocalS3 } from '../test/support/s3.js';

const s3 = await startLocalS3(process.argv[2] ?? 'media');
process.stdout.write(`${JSON.stringify({ endpoint: s3.endpoint, bucket: s3.bucket, credentials: s3.credentials })}\n`);
process.once('SIGTERM', () => {
  void s3.close().finally(() => process.exit(0));
});
