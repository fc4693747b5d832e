import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/apiserver.js';
import { kubeconfigCall } from '../helpers/kube-http.js';
import type { ApiCall } from '../apiserver/admission/webhook-cases.js';
import { PLUGIN_CASES, runPluginCase } from '../apiserver/admission/plugin-cases.js';
import { describeReal, realControlPlane } from './control-plane.js';

// kube-apiserver 1.34.4's default admission plugins (LimitRanger, ResourceQuota, Priority,
// RuntimeClass, NamespaceLifecycle) and the embedded server's, given the same objects and requests:
// every step's status, reason, message, causes, warnings and what the plugins set on the object
// (LimitRanger's resources and annotation, the Pod's priority, the quota's status.used) must match.

const controlPlane = realControlPlane();

describeReal('built-in admission plugins answer the same on kube-apiserver and the embedded server', () => {
  let embedded: TestServer;
  let real: ApiCall;
  let ours: ApiCall;

  beforeAll(async () => {
    embedded = await startTestServer();
    real = kubeconfigCall(controlPlane().kubeconfig);
    ours = kubeconfigCall(embedded.kubeconfig);
  }, 60_000);

  afterAll(async () => {
    await embedded?.stop();
  });

  for (const c of PLUGIN_CASES) {
    it(c.key, async () => {
      const theirs = await runPluginCase(real, c);
      const mine = await runPluginCase(ours, c);
      expect({ case: c.key, steps: mine }).toEqual({ case: c.key, steps: theirs });
    }, 60_000);
  }
});
