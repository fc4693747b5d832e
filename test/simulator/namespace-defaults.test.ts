import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/wait.js';
import { startSimulatedCluster, type SimulatedCluster } from './harness.js';

const CA = '-----BEGIN CERTIFICATE-----\nTUlJQnRlc3QtY2E=\n-----END CERTIFICATE-----\n';

interface Cm {
  data?: Record<string, string>;
  metadata: { annotations?: Record<string, string> };
}

describe('every namespace gets a default ServiceAccount and kube-root-ca.crt, as on a cluster', () => {
  let c: SimulatedCluster;
  beforeAll(async () => {
    c = await startSimulatedCluster({ rootCa: CA });
  });
  afterAll(async () => {
    await c.stop();
  });

  const exists = async (args: string[]): Promise<boolean> => (await c.kubectl(['get', ...args])).code === 0;

  it('publishes both in the system namespaces and in a namespace created later', async () => {
    for (const ns of ['default', 'kube-system']) {
      await waitFor(() => exists(['serviceaccount', 'default', '-n', ns]), { what: `default ServiceAccount in ${ns}` });
    }
    await c.kubectl.ok(['create', 'namespace', 'team-a']);
    await waitFor(() => exists(['serviceaccount', 'default', '-n', 'team-a']), {
      what: 'default ServiceAccount in team-a',
    });
    const cm = await waitFor(
      async () =>
        (await exists(['configmap', 'kube-root-ca.crt', '-n', 'team-a']))
          ? c.getJson<Cm>('configmap', 'kube-root-ca.crt', '-n', 'team-a')
          : undefined,
      {
        what: 'kube-root-ca.crt in team-a',
      },
    );
    expect(cm.data).toEqual({ 'ca.crt': CA });
    expect(cm.metadata.annotations?.['kubernetes.io/description']).toContain('verify the kube-apiserver');
  });

  it('puts back a deleted default ServiceAccount and a changed CA bundle', async () => {
    await c.kubectl.ok(['create', 'namespace', 'team-b']);
    await waitFor(() => exists(['serviceaccount', 'default', '-n', 'team-b']), {
      what: 'default ServiceAccount in team-b',
    });
    await c.kubectl.ok(['delete', 'serviceaccount', 'default', '-n', 'team-b']);
    await waitFor(() => exists(['serviceaccount', 'default', '-n', 'team-b']), { what: 'default ServiceAccount back' });
    await waitFor(() => exists(['configmap', 'kube-root-ca.crt', '-n', 'team-b']), {
      what: 'kube-root-ca.crt in team-b',
    });
    await c.kubectl.ok([
      'patch',
      'configmap',
      'kube-root-ca.crt',
      '-n',
      'team-b',
      '--type=merge',
      '-p',
      '{"data":{"ca.crt":"tampered"}}',
    ]);
    await waitFor(
      async () => (await c.getJson<Cm>('configmap', 'kube-root-ca.crt', '-n', 'team-b')).data?.['ca.crt'] === CA,
      {
        what: 'the CA bundle restored',
      },
    );
  });
});
