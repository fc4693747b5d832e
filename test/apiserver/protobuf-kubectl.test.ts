import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/apiserver.js';
import { kubectlFor, type Kubectl } from '../helpers/kubectl.js';

/**
 * The real kubectl reading the server's protobuf answers: its typed clients (events, drain) ask for
 * `application/vnd.kubernetes.protobuf,application/json` and decode what comes back with client-go's own
 * generated code, so a malformed list or object fails the command.
 */

/** kubectl -v=8's record of a 200 whose Content-Type (headers come sorted) is protobuf. */
const PB_ANSWER =
  /"Response" status="200 OK" headers=<(?:\n\t[^\n]*)*?\n\tContent-Type: application\/vnd\.kubernetes\.protobuf\n/;

describe('kubectl on protobuf answers', () => {
  let ts: TestServer;
  let kubectl: Kubectl;
  const post = async (path: string, body: unknown): Promise<void> => {
    const r = await fetch(`${ts.server.url}${path}`, {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json' },
    });
    expect(r.status, await r.clone().text()).toBe(201);
  };

  beforeAll(async () => {
    ts = await startTestServer();
    kubectl = kubectlFor(ts.kubeconfig, ts.dir);
    await post('/api/v1/nodes', { metadata: { name: 'n1' } });
    await post('/api/v1/namespaces/default/pods', {
      metadata: { name: 'p1' },
      spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'x' }] },
    });
    await post('/api/v1/namespaces/default/events', {
      metadata: { name: 'e1' },
      involvedObject: { kind: 'Pod', name: 'p1', namespace: 'default' },
      reason: 'Hello',
      message: 'from the test',
      type: 'Normal',
      firstTimestamp: '2026-01-01T00:00:00Z',
      lastTimestamp: '2026-01-01T00:00:00Z',
      count: 2,
    });
  });
  afterAll(async () => ts?.stop());

  it('kubectl events lists Events decoded from a protobuf EventList', async () => {
    const r = await kubectl(['events', '-v=8']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(PB_ANSWER);
    expect(r.stdout).toMatch(/Normal\s+Hello\s+Pod\/p1\s+from the test/);
  });

  it('kubectl drain reads the node and its pods in protobuf and deletes with a protobuf DeleteOptions', async () => {
    const r = await kubectl(['drain', 'n1', '--force', '--timeout=30s', '-v=8']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(PB_ANSWER);
    expect(r.stdout).toContain('node/n1 drained');
    const node = (await (await fetch(`${ts.server.url}/api/v1/nodes/n1`)).json()) as {
      spec: { unschedulable?: boolean };
    };
    expect(node.spec.unschedulable).toBe(true);
    expect((await fetch(`${ts.server.url}/api/v1/namespaces/default/pods/p1`)).status).toBe(404);
  });
});
