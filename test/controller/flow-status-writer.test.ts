// The Flow status writer tries a failed write again with the newest summary: callers ask for a
// write only when what they hold changed (the rollout controller keeps what it last asked for), so
// a write lost to a 5xx or a cut connection must not leave the status behind for good.
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FlowStatusWriter, type FlowStatusSummary } from '../../src/controller/flow-status-writer.js';
import { KubeClient, type PatchType } from '../../src/kube/client.js';
import { KubeApiError } from '../../src/kube/rest.js';
import type { KubeObject, ObjectRef } from '../../src/kube/types.js';
import { startTestServer, type TestServer } from '../helpers/apiserver.js';
import { waitFor } from '../helpers/wait.js';

/** A client whose first `failures` status patches fail as a server under load answers (503). */
class FailingStatusPatches extends KubeClient {
  failures: number;
  attempts = 0;
  constructor(base: KubeClient, failures: number) {
    super(base.config, base.rest, base.discovery);
    this.failures = failures;
  }
  override async patch(
    ref: ObjectRef,
    patch: unknown,
    type: PatchType,
    opts: { fieldManager?: string; subresource?: string; force?: boolean } = {},
  ): Promise<KubeObject> {
    if (opts.subresource === 'status') {
      this.attempts++;
      if (this.failures > 0) {
        this.failures--;
        throw new KubeApiError(503, 'ServiceUnavailable', 'the server is currently unable to handle the request', '');
      }
    }
    return super.patch(ref, patch, type, opts);
  }
}

const CRD = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'gadgets.writer.test' },
  spec: {
    group: 'writer.test',
    scope: 'Namespaced',
    names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget', listKind: 'GadgetList' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        subresources: { status: {} },
        schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
      },
    ],
  },
};

const summary = (watched: number): FlowStatusSummary => ({
  generation: 1,
  state: 'ready',
  message: `${watched} watched`,
  watched,
  succeeded: watched,
  failed: 0,
  ready: watched,
  notReady: 0,
});

describe('FlowStatusWriter', () => {
  let ts: TestServer;
  let kube: KubeClient;
  beforeAll(async () => {
    ts = await startTestServer();
    kube = KubeClient.fromKubeconfig(ts.kubeconfig);
    await kube.create(CRD as KubeObject);
    await waitFor(
      () => {
        kube.discovery.invalidate();
        return kube.list('writer.test/v1', 'Gadget', {});
      },
      {
        what: 'the Gadget kind served',
      },
    );
  });
  afterAll(async () => ts?.stop());

  it('writes the status after failed attempts, with the summary asked for last', async () => {
    const gadget = await kube.create({
      apiVersion: 'writer.test/v1',
      kind: 'Gadget',
      metadata: { name: 'g1', namespace: 'default' },
    });
    const failing = new FailingStatusPatches(kube, 2);
    const writer = new FlowStatusWriter(failing, pino({ level: 'silent' }), 'test');
    let watched = 1;
    writer.schedule('default/g1', gadget, () => summary(watched));
    await waitFor(() => failing.attempts >= 1, { what: 'the first attempt' });
    watched = 3;
    const written = await waitFor(
      async () => {
        const g = await kube.get({ apiVersion: 'writer.test/v1', kind: 'Gadget', name: 'g1', namespace: 'default' });
        const status = g?.status as { resources?: { watched?: number } } | undefined;
        return status?.resources?.watched === 3 ? status : undefined;
      },
      { what: 'the status written after two failed attempts', timeoutMs: 15_000 },
    );
    expect(written.resources).toMatchObject({ watched: 3, ready: 3 });
    expect(failing.attempts).toBe(3);
    await writer.stop();
  });
});
