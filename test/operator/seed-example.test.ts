import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFlowOps, type FlowOpsEnv } from '../helpers/flowops.js';
import { waitFor } from '../helpers/wait.js';
import { OPERATOR, POD_3 } from '../fixtures/seed-operator.js';

let env: FlowOpsEnv;
beforeAll(async () => {
  env = await startFlowOps({ operators: true });
});
afterAll(async () => env?.stop());

const annotations = async (name: string, ns = 'default'): Promise<string> =>
  env.kubectl.ok(['-n', ns, 'get', 'pod', name, '-o', 'jsonpath={.metadata.annotations}']);
// kubectl apply adds its last-applied annotation beside ours, so applied pods are checked by key.
const containerNum = async (name: string): Promise<string> =>
  env.kubectl.ok(['get', 'pod', name, '-o', 'jsonpath={.metadata.annotations.dcontroller\\.io/container-num}']);

describe('the seed pod-container-num-annotator example, verbatim, with kubectl', () => {
  it('annotates pods with their container count and follows changes', async () => {
    const { kubectl } = env;
    await kubectl.ok(['apply', '-f', '-'], OPERATOR);
    await kubectl.ok(['run', 'net-debug', '--image=docker.io/l7mp/net-debug:latest']);

    const status = await waitFor(
      async () => {
        const op = JSON.parse(
          await kubectl.ok(['get', 'operators.dcontroller.io', 'pod-container-num-annotator', '-o', 'json']),
        ) as {
          status?: { controllers?: Array<{ name: string; conditions: Array<Record<string, unknown>> }> };
        };
        return op.status?.controllers?.[0];
      },
      { what: 'operator status' },
    );
    expect(status.name).toBe('pod-container-num-annotator');
    expect(status.conditions[0]).toMatchObject({
      type: 'Ready',
      status: 'True',
      reason: 'Ready',
      message: 'Controller is up and running',
      observedGeneration: 1,
    });

    await waitFor(async () => (await annotations('net-debug')) === '{"dcontroller.io/container-num":"1"}', {
      what: 'net-debug annotation',
    });

    await kubectl.ok(['apply', '-f', '-'], POD_3);
    await waitFor(async () => (await containerNum('net-debug-2')) === '3', { what: 'net-debug-2 annotation' });

    // Pod containers are immutable: a changed pod is a re-created one.
    await kubectl.ok(['delete', 'pod', 'net-debug-2', '--wait=false']);
    await kubectl.ok(['apply', '-f', '-'], POD_3.replace(/ {2}- name: net-debug-3\n {4}image: .*\n/, ''));
    await waitFor(async () => (await containerNum('net-debug-2')) === '2', { what: 'net-debug-2 re-annotated' });

    // Pods in other namespaces are not touched.
    await kubectl.ok(['create', 'namespace', 'other']);
    await kubectl.ok(['-n', 'other', 'run', 'elsewhere', '--image=docker.io/l7mp/net-debug:latest']);
    await kubectl.ok(['-n', 'default', 'run', 'witness', '--image=docker.io/l7mp/net-debug:latest']);
    await waitFor(async () => (await annotations('witness')) === '{"dcontroller.io/container-num":"1"}', {
      what: 'witness annotation',
    });
    expect(await annotations('elsewhere', 'other')).toBe('');

    // The annotation is owned by the controller's own field manager.
    const pod = JSON.parse(await kubectl.ok(['get', 'pod', 'net-debug', '-o', 'json', '--show-managed-fields'])) as {
      metadata: { managedFields: Array<{ manager: string }> };
    };
    expect(pod.metadata.managedFields.map((m) => m.manager)).toContain(
      'dcontroller-pod-container-num-annotator-pod-container-num-annotator',
    );

    // Cleanup as in the seed; deleting the Operator stops it.
    await kubectl.ok(['delete', 'operators.dcontroller.io', 'pod-container-num-annotator']);
    await waitFor(() => env.controllers.operators!.controllers('pod-container-num-annotator').length === 0, {
      what: 'operator stopped',
    });
  });
});
