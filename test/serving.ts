/**
 * What tests that serve on this machine need beside the service (a customer's HTTPS site, nginx in
 * front of the service): a free port, and a self-signed certificate made by openssl.
 */
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';

/** A port of 127.0.0.1 that nothing listens on now, for a program that cannot be told port 0. */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer().once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

/** A certificate for `host`, valid two days: `site.key` and `site.crt` written into `dir`, and their paths. */
export function selfSignedCertificate(dir: string, host: string): { key: string; cert: string } {
  const files = { key: join(dir, 'site.key'), cert: join(dir, 'site.crt') };
  const subject = ['-subj', `/CN=${host}`, '-addext', `subjectAltName=DNS:${host}`];
  const output = ['-keyout', files.key, '-out', files.cert];
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', ...subject, ...output], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return files;
}
