import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAuthTestServer, type AuthTestServer } from '../helpers/apiserver.js';
import { kubectlFor, type Kubectl } from '../helpers/kubectl.js';
import { waitFor } from '../helpers/wait.js';

/**
 * A CertificateSigningRequest for a built-in signer, approved with the real `kubectl certificate approve`
 * (PUT …/approval), is signed by the embedded CA: the certificate verifies against it and authenticates.
 */
describe('CertificateSigningRequests of the built-in signers are signed by the embedded CA on approval', () => {
  let s: AuthTestServer;
  let kubectl: Kubectl;
  beforeAll(async () => {
    s = await startAuthTestServer();
    kubectl = kubectlFor(s.kubeconfig, join(s.dir, 'kubectl-cache'));
  });
  afterAll(async () => {
    await s.stop();
  });

  const csrOf = (name: string, subject: string, signer: string): string => {
    const key = join(s.dir, `${name}.key`);
    const req = join(s.dir, `${name}.csr`);
    execFileSync('openssl', [
      'req',
      '-new',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      key,
      '-out',
      req,
      '-subj',
      subject,
      '-addext',
      'basicConstraints=critical,CA:TRUE',
    ]);
    const manifest = {
      apiVersion: 'certificates.k8s.io/v1',
      kind: 'CertificateSigningRequest',
      metadata: { name },
      spec: {
        request: readFileSync(req).toString('base64'),
        signerName: signer,
        usages: ['client auth'],
        expirationSeconds: 3600,
      },
    };
    const file = join(s.dir, `${name}.json`);
    writeFileSync(file, JSON.stringify(manifest));
    return file;
  };

  it('signs a kube-apiserver-client request; the certificate is not a CA and authenticates as its subject', async () => {
    await kubectl.ok(['create', '-f', csrOf('alice', '/CN=alice/O=dev', 'kubernetes.io/kube-apiserver-client')]);
    await kubectl.ok(['certificate', 'approve', 'alice']);
    const cert = await waitFor(
      async () => {
        const out = await kubectl.ok(['get', 'csr', 'alice', '-o', 'jsonpath={.status.certificate}']);
        return out ? Buffer.from(out, 'base64').toString('utf8') : undefined;
      },
      { what: 'status.certificate of alice' },
    );
    const certFile = join(s.dir, 'alice.crt');
    writeFileSync(certFile, cert);
    execFileSync('openssl', ['verify', '-CAfile', join(s.pki.dir, 'ca.crt'), certFile]);
    const text = execFileSync('openssl', ['x509', '-in', certFile, '-noout', '-text'], { encoding: 'utf8' });
    expect(text).toContain('CA:FALSE');
    expect(text).toContain('TLS Web Client Authentication');
    const whoami = await kubectl([
      'auth',
      'whoami',
      '-o',
      'jsonpath={.status.userInfo.username}',
      `--client-certificate=${certFile}`,
      `--client-key=${join(s.dir, 'alice.key')}`,
      '--token=',
    ]);
    expect(whoami.stdout).toBe('alice');
  });

  it('leaves a request for another signer unsigned, and a denied one too', async () => {
    await kubectl.ok(['create', '-f', csrOf('other', '/CN=bob', 'example.com/signer')]);
    await kubectl.ok(['certificate', 'approve', 'other']);
    await kubectl.ok(['create', '-f', csrOf('denied', '/CN=carol', 'kubernetes.io/kube-apiserver-client')]);
    await kubectl.ok(['certificate', 'deny', 'denied']);
    for (const name of ['other', 'denied']) {
      const csr = JSON.parse(await kubectl.ok(['get', 'csr', name, '-o', 'json'])) as {
        status?: { certificate?: string; conditions?: unknown[] };
      };
      expect(csr.status?.certificate, name).toBeUndefined();
      expect(csr.status?.conditions?.length, name).toBe(1);
    }
  });
});
