import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../src/kube/types.js';
import { OPERATOR, POD_3 } from '../fixtures/seed-operator.js';
import { ROOT } from '../helpers/cli.js';
import { waitFor } from '../helpers/wait.js';
import { apiServerFixture, metricsAddressOf, spawnFlowops, stopGracefully } from './processes.js';

// As a cluster install does: the CRDs come from config/crd, not from the processes.
const cluster = apiServerFixture(async (kube) => {
  const dir = join(ROOT, 'config/crd');
  for (const f of readdirSync(dir).filter((n) => n !== 'kustomization.yaml')) {
    for (const doc of parseAllDocuments(readFileSync(join(dir, f), 'utf8')))
      await kube.apply(doc.toJS() as KubeObject, { fieldManager: 'test', force: true });
  }
});

describe('flowops run: Δ-controller Operators in cluster mode', () => {
  it('the leader runs Operators from the installed CRD; the seed example annotates a Pod', async () => {
    const kube = cluster.kube();
    const run = cluster.track(
      spawnFlowops('run', [
        'run',
        '--kubeconfig',
        cluster.kubeconfig(),
        '--metrics-listen',
        '127.0.0.1:0',
        '--lease-namespace',
        'default',
        '--lease-name',
        `ops-${randomUUID().slice(0, 8)}`,
        '--queue',
        `ops-${randomUUID()}`,
        '--lease-duration',
        '3s',
        '--renew-deadline',
        '2s',
        '--retry-period',
        '500ms',
      ]),
    );
    await metricsAddressOf(run);
    await waitFor(() => run.stderr().includes('"msg":"became leader"'), {
      what: `run leading (stderr: ${run.stderr().slice(-2000)})`,
      timeoutMs: 20_000,
    });
    await kube.apply(parse(OPERATOR) as KubeObject, { fieldManager: 'test', force: true });
    await kube.create({ ...(parse(POD_3) as KubeObject), metadata: { name: 'net-debug-2', namespace: 'default' } });
    const pod = await waitFor(
      async () => {
        const p = await kube.get({ apiVersion: 'v1', kind: 'Pod', namespace: 'default', name: 'net-debug-2' });
        return p?.metadata.annotations?.['dcontroller.io/container-num'] ? p : undefined;
      },
      { what: `the Operator's annotation on the Pod (run stderr: ${run.stderr().slice(-2000)})`, timeoutMs: 20_000 },
    );
    expect(pod.metadata.annotations!['dcontroller.io/container-num']).toBe('3');
    expect(await stopGracefully(run)).toEqual({ code: 0, signal: null });
  });
});
