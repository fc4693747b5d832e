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

/**
 * A client whose first status patch is answered late, as a loaded server answers: it is held
 * until `release()` (or, as a bound, 2 s), and `overlap` records a patch that began while another
 * was still unanswered.
 */
class SlowFirstStatusPatch extends KubeClient {
  inFlight = 0;
  overlap = false;
  patches = 0;
  release: () => void = () => {};
  private readonly held = new Promise<void>((r) => {
    this.release = r;
    setTimeout(r, 2_000).unref();
  });
  constructor(base: KubeClient) {
    super(base.config, base.rest, base.discovery);
  }
  override async patch(
    ref: ObjectRef,
    patch: unknown,
    type: PatchType,
    opts: { fieldManager?: string; subresource?: string; force?: boolean } = {},
  ): Promise<KubeObject> {
    if (opts.subresource !== 'status') return super.patch(ref, patch, type, opts);
    if (this.inFlight > 0) this.overlap = true;
    this.inFlight++;
    try {
      if (this.patches++ === 0) await this.held;
      return await super.patch(ref, patch, type, opts);
    } finally {
      this.inFlight--;
    }
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

  it('writes one status of a Flow at a time, so an older summary never lands after a newer one', async () => {
    const gadget = await kube.create({
      apiVersion: 'writer.test/v1',
      kind: 'Gadget',
      metadata: { name: 'g2', namespace: 'default' },
    });
    const slow = new SlowFirstStatusPatch(kube);
    const writer = new FlowStatusWriter(slow, pino({ level: 'silent' }), 'test');
    writer.schedule('default/g2', gadget, () => summary(1));
    await waitFor(() => slow.inFlight === 1, { what: 'the first status patch sent' });
    // The second write's summary is asked for when that write begins: if it begins while the
    // first is unanswered, the first is let go at once and lands last (the bug); otherwise the
    // first is answered after its bound and the second follows it.
    writer.schedule('default/g2', gadget, () => {
      slow.release();
      return summary(2);
    });
    await waitFor(() => slow.patches === 2 && slow.inFlight === 0, { what: 'both patches answered' });
    const g = await kube.get({ apiVersion: 'writer.test/v1', kind: 'Gadget', name: 'g2', namespace: 'default' });
    expect(slow.overlap).toBe(false);
    expect((g?.status as { resources?: { watched?: number } }).resources?.watched).toBe(2);
    await writer.stop();
  });
});
