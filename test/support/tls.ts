import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

export interface SelfSigned {
  /** the files in `dir` */
  keyPath: string;
  certPath: string;
  key: Buffer;
  cert: Buffer;
}

/**
 * A self-signed certificate for a test's HTTPS server, valid a day (openssl, P-256): `subject` its
 * CN, `altNames` its subjectAltName (`IP:127.0.0.1,DNS:localhost`); `ca` marks it a CA, as a file
 * given to NODE_EXTRA_CA_CERTS must be. Written as key.pem and cert.pem in `dir`.
 */
export async function selfSignedCert(dir: string, subject: string, altNames: string, opts: { ca?: boolean } = {}): Promise<SelfSigned> {
  const keyPath = path.join(dir, 'key.pem');
  const certPath = path.join(dir, 'cert.pem');
  await promisify(execFile)('openssl', [
    ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-sha256', '-days', '1'],
    ...['-keyout', keyPath, '-out', certPath, '-subj', `/CN=${subject}`, '-addext', `subjectAltName=${altNames}`],
    ...(opts.ca ? ['-addext', 'basicConstraints=critical,CA:TRUE'] : []),
  ]);
  const [key, cert] = await Promise.all([fs.readFile(keyPath), fs.readFile(certPath)]);
  return { keyPath, certPath, key, cert };
}
