import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';
import { startFlowOps, type FlowOpsEnv } from '../helpers/flowops.js';
import { waitFor } from '../helpers/wait.js';

const example = (f: string): string => readFileSync(join(ROOT, 'repos-example', f), 'utf8');

let env: FlowOpsEnv;
beforeAll(async () => {
  env = await startFlowOps();
  await env.kubectl.ok(['apply', '-f', '-'], example('database-operator/crd.yaml'));
  await env.kubectl.ok(['apply', '-f', '-'], example('database-operator/flow.yaml'));
});
afterAll(async () => env?.stop());

const sts = async (name: string) => {
  const r = await env.kubectl(['get', 'statefulset', name, '-o', 'json']);
  return r.code === 0 ? (JSON.parse(r.stdout) as any) : undefined;
};

describe('the seed walkthrough: a Database becomes a StatefulSet', () => {
  it('creates the StatefulSet with the replicas and image of the Database, owned by it', async () => {
    await env.kubectl.ok(['apply', '-f', '-'], example('samples/my-postgres.yaml'));
    const s = await waitFor(() => sts('my-postgres'), { what: 'StatefulSet my-postgres', timeoutMs: 20_000 });
    expect(s.spec.replicas).toBe(3);
    expect(s.spec.template.spec.containers[0].image).toBe('postgres:latest');
    expect(s.metadata.labels['flowops.io/flow']).toBe('database-operator');
    const db = JSON.parse(await env.kubectl.ok(['get', 'database', 'my-postgres', '-o', 'json']));
    expect(s.metadata.ownerReferences).toEqual([
      expect.objectContaining({ kind: 'Database', name: 'my-postgres', uid: db.metadata.uid }),
    ]);
    const withFields = JSON.parse(
      await env.kubectl.ok(['get', 'statefulset', 'my-postgres', '-o', 'json', '--show-managed-fields']),
    );
    expect(withFields.metadata.managedFields.map((m: any) => m.manager)).toContain('flowops');
    expect(db.metadata.finalizers).toContain('flowops.io/finalizer');
  });

  it('is not Ready until its StatefulSet is: nothing runs Pods here, so the status is set by hand', async () => {
    const readyOf = async () =>
      JSON.parse(await env.kubectl.ok(['get', 'database', 'my-postgres', '-o', 'json'])).status?.conditions?.find(
        (c: any) => c.type === 'Ready',
      );
    const notReady = await waitFor(
      async () => ((await readyOf())?.reason === 'ChildrenNotReady' ? readyOf() : undefined),
      { what: 'Database ChildrenNotReady' },
    );
    expect(notReady).toMatchObject({ status: 'False', message: 'StatefulSet my-postgres: 0/3 replicas ready' });
    const s = await sts('my-postgres');
    const status = {
      observedGeneration: s.metadata.generation,
      replicas: 3,
      readyReplicas: 3,
      currentReplicas: 3,
      updatedReplicas: 3,
    };
    await env.kubectl.ok([
      'patch',
      'statefulset',
      'my-postgres',
      '--subresource=status',
      '--type=merge',
      '-p',
      JSON.stringify({ status }),
    ]);
    await waitFor(async () => (await readyOf())?.status === 'True', { what: 'Database Ready=True' });
    // The seed's CRD shows the last run as a printer column (its Ready reason).
    expect(await env.kubectl.ok(['get', 'databases'])).toMatch(
      /^my-postgres\s+postgres\s+3\s+True\s+Reconciled\s+\S+$/m,
    );
  });

  it('shows the Flow as Ready with its counts in kubectl get flows', async () => {
    await waitFor(async () => /database-operator\s+Database\s+True\s+1/.test(await env.kubectl.ok(['get', 'flows'])), {
      what: 'flow printer columns',
    });
    const flow = JSON.parse(await env.kubectl.ok(['get', 'fl', 'database-operator', '-o', 'json']));
    expect(flow.status.resources).toMatchObject({ watched: 1, succeeded: 1, failed: 0 });
    expect(flow.status.observedGeneration).toBe(flow.metadata.generation);
  });

  it('updates the StatefulSet when the Database changes', async () => {
    await env.kubectl.ok(['patch', 'database', 'my-postgres', '--type', 'merge', '-p', '{"spec":{"replicas":5}}']);
    await waitFor(async () => (await sts('my-postgres'))?.spec.replicas === 5, { what: 'replicas 5' });
  });

  it('hot-reloads an edited Flow and re-reconciles every Database', async () => {
    const edited = example('database-operator/flow.yaml').replace(
      '{{ .Resource.spec.engine }}:latest',
      '{{ .Resource.spec.engine }}:16',
    );
    await env.kubectl.ok(['apply', '-f', '-'], edited);
    await waitFor(async () => (await sts('my-postgres'))?.spec.template.spec.containers[0].image === 'postgres:16', {
      what: 'image from the edited Flow',
    });
  });

  it('runs onDelete, then lets the Database go and collects its StatefulSet', async () => {
    const r = await env.kubectl(['delete', 'database', 'my-postgres', '--timeout=30s']);
    expect(r.code).toBe(0);
    const backup = JSON.parse(await env.kubectl.ok(['get', 'configmap', 'my-postgres-final-backup', '-o', 'json']));
    expect(backup.data).toMatchObject({ database: 'my-postgres', engine: 'postgres' });
    await waitFor(async () => (await sts('my-postgres')) === undefined, { what: 'StatefulSet garbage-collected' });
  });

  it('does not leave a finalizer behind when the Flow is deleted first', async () => {
    await env.kubectl.ok(['apply', '-f', '-'], example('samples/my-postgres.yaml').replace('my-postgres', 'orphaned'));
    await waitFor(
      async () =>
        JSON.parse(await env.kubectl.ok(['get', 'database', 'orphaned', '-o', 'json'])).metadata.finalizers?.includes(
          'flowops.io/finalizer',
        ),
      { what: 'finalizer added' },
    );
    await env.kubectl.ok(['delete', 'flow', 'database-operator', '--timeout=30s']);
    const r = await env.kubectl(['delete', 'database', 'orphaned', '--timeout=30s']);
    expect(r.code).toBe(0);
  });
});
