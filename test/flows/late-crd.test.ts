import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WIDGET_CRD } from '../fixtures/widgets.js';
import { startFlowOps, type FlowOpsEnv } from '../helpers/flowops.js';
import { waitFor } from '../helpers/wait.js';

let env: FlowOpsEnv;
beforeAll(async () => {
  env = await startFlowOps();
});
afterAll(async () => env?.stop());

const flow = `apiVersion: flowops.io/v1
kind: Flow
metadata:
  name: widget-mirror
  namespace: default
spec:
  watch:
    apiVersion: example.com/v1
    kind: Widget
  reconcile:
    steps:
      - name: mirror
        type: kubectl
        action: apply
        manifests: |
          apiVersion: v1
          kind: ConfigMap
          metadata:
            name: {{ .Resource.metadata.name }}-mirror
          data:
            size: "{{ .Resource.spec.size }}"
`;

const readyCondition = async () => {
  const f = JSON.parse(await env.kubectl.ok(['get', 'flow', 'widget-mirror', '-o', 'json']));
  return (f.status?.conditions ?? []).find((c: { type: string }) => c.type === 'Ready') as
    | { status: string; reason: string }
    | undefined;
};

describe('a Flow whose watched kind does not exist yet', () => {
  it('waits, says so in its status, and starts when the CRD appears', async () => {
    await env.kubectl.ok(['apply', '-f', '-'], flow);
    const waiting = await waitFor(
      async () => {
        const c = await readyCondition();
        return c?.reason === 'WatchedKindNotServed' ? c : undefined;
      },
      { what: 'WatchedKindNotServed' },
    );
    expect(waiting.status).toBe('False');
    await env.kubectl.ok(['apply', '-f', '-'], WIDGET_CRD);
    await env.kubectl.ok(
      ['apply', '-f', '-'],
      'apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: late, namespace: default}\nspec: {size: 7}\n',
    );
    await waitFor(async () => (await env.kubectl(['get', 'cm', 'late-mirror'])).code === 0, {
      what: 'the Flow acting on the new kind',
    });
    await waitFor(async () => (await readyCondition())?.status === 'True', { what: 'Ready=True' });
  });

  it('marks an invalid Flow Stalled with the validation error', async () => {
    await env.kubectl.ok(
      ['apply', '-f', '-'],
      flow.replace('name: widget-mirror', 'name: broken').replace('action: apply', 'action: patch'),
    );
    const f = await waitFor(
      async () => {
        const o = JSON.parse(await env.kubectl.ok(['get', 'flow', 'broken', '-o', 'json']));
        return (o.status?.conditions ?? []).find((c: { type: string }) => c.type === 'Stalled');
      },
      { what: 'Stalled condition' },
    );
    expect(f.reason).toBe('InvalidSpec');
    expect(f.message).toMatch(/target/);
  });
});
