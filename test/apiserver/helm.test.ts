import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/apiserver.js';
import { helmFor, writeChart, type Helm } from '../helpers/helm.js';
import { kubectlFor, type Kubectl } from '../helpers/kubectl.js';

const CONFIGMAP = `apiVersion: v1
kind: ConfigMap
metadata:
  name: {{ .Release.Name }}-settings
data:
  greeting: {{ .Values.greeting | default "hello" | quote }}
`;

let ts: TestServer;
let home: string;
let helm: Helm;
let kubectl: Kubectl;
let chart: string;

beforeAll(async () => {
  ts = await startTestServer();
  home = mkdtempSync(join(tmpdir(), 'helm-test-'));
  helm = helmFor(ts.kubeconfig, home);
  kubectl = kubectlFor(ts.kubeconfig, join(home, 'kubectl'));
  chart = writeChart(join(home, 'chart'), 'tiny', { 'configmap.yaml': CONFIGMAP });
});
afterAll(async () => {
  await ts?.stop();
  if (home) rmSync(home, { recursive: true, force: true });
});

const releaseSecrets = async (ns: string, release: string): Promise<string[]> =>
  (await kubectl.ok(['get', 'secrets', '-n', ns, '-l', `owner=helm,name=${release}`, '-o', 'name']))
    .split('\n')
    .filter(Boolean);

describe('helm 4 against the embedded API server', () => {
  it('installs, upgrades and uninstalls a release (protobuf DeleteOptions on DELETE)', async () => {
    await helm.ok(['install', 'demo', chart, '-n', 'apps', '--create-namespace']);
    expect(
      await kubectl.ok(['get', 'configmap', 'demo-settings', '-n', 'apps', '-o', 'jsonpath={.data.greeting}']),
    ).toBe('hello');
    await helm.ok(['upgrade', 'demo', chart, '-n', 'apps', '--set', 'greeting=hi']);
    expect(await releaseSecrets('apps', 'demo')).toEqual([
      'secret/sh.helm.release.v1.demo.v1',
      'secret/sh.helm.release.v1.demo.v2',
    ]);

    const out = await helm.ok(['uninstall', 'demo', '-n', 'apps']);
    expect(out).toContain('release "demo" uninstalled');
    expect(await releaseSecrets('apps', 'demo')).toEqual([]);
    const cm = await kubectl(['get', 'configmap', 'demo-settings', '-n', 'apps']);
    expect(cm.stderr).toContain('NotFound');
    // The name is free again.
    await helm.ok(['install', 'demo', chart, '-n', 'apps']);
    expect(await releaseSecrets('apps', 'demo')).toEqual(['secret/sh.helm.release.v1.demo.v1']);
  });
});
