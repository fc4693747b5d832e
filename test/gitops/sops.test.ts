import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { generateIdentity, identityToRecipient } from 'age-encryption';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../src/kube/types.js';
import { startFlowOps, type FlowOpsEnv } from '../helpers/flowops.js';
import { startGitServer, type GitServer, type TestRepo } from '../helpers/git-server.js';
import { keyring, type Keyring, type SigningKey } from '../helpers/signing.js';
import { attempted, flowSource, ready } from './fixtures.js';

/** The real sops binary (`go install github.com/getsops/sops/v3/cmd/sops`); FLOWOPS_SOPS names it elsewhere. */
const SOPS = process.env.FLOWOPS_SOPS ?? 'sops';
const haveSops = ((): boolean => {
  try {
    execFileSync(SOPS, ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

const secretYaml = (name: string, password: string): string => `apiVersion: v1
kind: Secret
metadata:
  name: ${name}
type: Opaque
stringData:
  password: ${password}
  port: "5432"
`;

/** Every file under `dir`, as text, for grepping the data a test left behind. */
function allText(dir: string): string {
  if (!existsSync(dir)) return '';
  let out = '';
  for (const entry of readdirSync(dir, { recursive: true })) {
    const p = join(dir, String(entry));
    if (statSync(p).isFile()) out += readFileSync(p).toString('latin1');
  }
  return out;
}

describe.skipIf(!haveSops)('FlowSource spec.decryption: SOPS files made by the real sops', () => {
  let env: FlowOpsEnv;
  let gitServer: GitServer;
  let repo: TestRepo;
  let work: string;
  let dataDir: string;
  let recipient = '';
  let identity = '';
  let logs = '';
  let keys: Keyring;
  let pgp: SigningKey;
  const password = `pw-${randomBytes(12).toString('hex')}`;
  const jsonPassword = `json-${randomBytes(12).toString('hex')}`;

  const sops = (args: string[], input: string, type: 'yaml' | 'json' = 'yaml'): string => {
    const file = join(work, `plain.${type}`);
    writeFileSync(file, input);
    return execFileSync(SOPS, ['--encrypt', '--input-type', type, '--output-type', type, ...args, file], {
      encoding: 'utf8',
      env: { ...process.env, SOPS_AGE_KEY_FILE: '/nonexistent', GNUPGHOME: pgp.gnupgHome ?? '' },
    });
  };

  beforeAll(async () => {
    const sink = new Writable({
      write: (chunk: Buffer, _e, cb) => {
        logs += chunk.toString();
        cb();
      },
    });
    dataDir = mkdtempSync(join(tmpdir(), 'flowops-sources-'));
    env = await startFlowOps({ log: pino({ level: 'debug' }, sink), sources: { dataDir } });
    gitServer = await startGitServer();
    repo = gitServer.repo('sops');
    work = mkdtempSync(join(tmpdir(), 'flowops-sops-'));
    identity = await generateIdentity();
    recipient = await identityToRecipient(identity);
    keys = keyring();
    pgp = keys.gpgKey('Sops', { encrypt: true });
    await env.kube.create({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'sops-keys', namespace: 'default' },
      data: {
        'flux.agekey': Buffer.from(`${identity}\n`).toString('base64'),
        'sops.asc': Buffer.from(pgp.privateKey ?? '').toString('base64'),
      },
    } as KubeObject);
  });
  afterAll(async () => {
    await env?.stop();
    await gitServer?.stop();
    keys?.stop();
  });

  const secretData = async (name: string): Promise<Record<string, string> | undefined> => {
    const s = await env.kube.get({ apiVersion: 'v1', kind: 'Secret', namespace: 'default', name });
    return s
      ? Object.fromEntries(
          Object.entries((s.data ?? {}) as Record<string, string>).map(([k, v]) => [
            k,
            Buffer.from(v, 'base64').toString('utf8'),
          ]),
        )
      : undefined;
  };

  it('decrypts YAML (encrypted_regex) and JSON files at apply time; the plaintext is never at rest', async () => {
    const yaml = sops(
      ['--age', recipient, '--encrypted-regex', '^(data|stringData)$'],
      secretYaml('db-creds', password),
    );
    expect(yaml).not.toContain(password);
    expect(yaml).toMatch(/password: ENC\[AES256_GCM,/);
    // JSON, with the object's identity left readable through unencrypted_regex.
    const json = sops(
      ['--age', recipient, '--unencrypted-regex', '^(apiVersion|kind|metadata|name)$'],
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 'json-creds' },
        stringData: { token: jsonPassword },
      }),
      'json',
    );
    expect(json).not.toContain(jsonPassword);
    const sha = await repo.commit({ 'secret.yaml': yaml, 'secret-json.yaml': json });
    await env.kube.create(
      flowSource('sops', repo.url, { decryption: { provider: 'sops', secretRef: { name: 'sops-keys' } } }),
    );
    const s = await attempted(env.kube, 'sops', sha);
    expect(ready(s)).toMatchObject({ status: 'True', reason: 'Applied' });
    expect(await secretData('db-creds')).toEqual({ password, port: '5432' });
    expect(await secretData('json-creds')).toEqual({ token: jsonPassword });
    const src = await env.kube.get({
      apiVersion: 'flowops.io/v1',
      kind: 'FlowSource',
      namespace: 'default',
      name: 'sops',
    });
    const events = await env.kube.list('v1', 'Event', { namespace: 'default' });
    for (const text of [
      allText(dataDir),
      logs,
      JSON.stringify(src),
      JSON.stringify(events.items),
      allText(env.ts.dir),
    ]) {
      expect(text).not.toContain(password);
      expect(text).not.toContain(jsonPassword);
      expect(text).not.toContain(identity);
      expect(text).not.toContain(pgp.secret);
    }
  });

  it('decrypts a file encrypted to an OpenPGP recipient', async () => {
    const args = ['--pgp', pgp.fingerprint ?? '', '--encrypted-regex', '^(data|stringData)$'];
    const yaml = sops(args, secretYaml('pgp-creds', password));
    expect(yaml).toContain('-----BEGIN PGP MESSAGE-----');
    const sha = await repo.commit({ 'pgp.yaml': yaml });
    env.controllers.sources!.trigger('default', 'sops');
    const s = await attempted(env.kube, 'sops', sha);
    expect(ready(s)).toMatchObject({ status: 'True', reason: 'Applied' });
    expect(await secretData('pgp-creds')).toEqual({ password, port: '5432' });
  });

  it('rejects a file whose MAC no longer matches (a value changed after encryption), nothing applied', async () => {
    const yaml = sops(
      ['--age', recipient, '--encrypted-regex', '^(data|stringData)$'],
      secretYaml('mac-creds', password),
    );
    const tampered = yaml.replace('name: mac-creds', 'name: mac-creds-evil');
    const sha = await repo.commit({ 'tampered.yaml': tampered });
    env.controllers.sources!.trigger('default', 'sops');
    const s = await attempted(env.kube, 'sops', sha);
    expect(ready(s)).toMatchObject({ status: 'False', reason: 'ValidationFailed' });
    expect(ready(s)?.message).toBe(
      `main@sha1:${sha}: commit rejected, nothing applied: tampered.yaml: cannot be decrypted: ` +
        'MAC mismatch: the file was changed after sops encrypted it',
    );
    expect(await secretData('mac-creds-evil')).toBeUndefined();
    await repo.commit({ 'tampered.yaml': null });
  });

  it('rejects a file no key of the Secret opens, naming the file', async () => {
    const other = await identityToRecipient(await generateIdentity());
    const sha = await repo.commit({
      'other.yaml': sops(
        ['--age', other, '--encrypted-regex', '^(data|stringData)$'],
        secretYaml('other-creds', password),
      ),
    });
    env.controllers.sources!.trigger('default', 'sops');
    const s = await attempted(env.kube, 'sops', sha);
    expect(ready(s)?.message).toContain(
      'other.yaml: cannot be decrypted: none of the decryption keys opens the data key ' +
        '(the file has 1 age and 0 OpenPGP recipient(s))',
    );
    expect(await secretData('other-creds')).toBeUndefined();
  });

  it('rejects a SOPS file in a source without spec.decryption instead of applying ciphertext', async () => {
    const r2 = gitServer.repo('no-decryption');
    const sha = await r2.commit({
      'secret.yaml': sops(
        ['--age', recipient, '--encrypted-regex', '^(data|stringData)$'],
        secretYaml('plain-creds', password),
      ),
    });
    await env.kube.create(flowSource('no-decryption', r2.url));
    const s = await attempted(env.kube, 'no-decryption', sha);
    expect(ready(s)?.message).toContain(
      'secret.yaml: encrypted with SOPS, but the FlowSource has no spec.decryption to decrypt it',
    );
    expect(await secretData('plain-creds')).toBeUndefined();
  });
});
