import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmbeddedChecks } from '../../src/admission-webhook/index.js';
import { startTestServer, type TestServer } from '../helpers/apiserver.js';
import { ROOT } from '../helpers/cli.js';
import { kubectlFor, type Kubectl } from '../helpers/kubectl.js';

// The webhook's checks inside the embedded API server, as `flowops up` installs them: the real
// kubectl applying a misspelled Flow is refused with the field and the fix (a 422 naming the
// Flow), the example admitted; its status and finalizers can still be written after its CRD
// changed under it, so a Flow that became invalid can still be deleted.

const example = (f: string): string => readFileSync(join(ROOT, 'repos-example/database-operator', f), 'utf8');
const GOOD = example('flow.yaml');
const BAD = GOOD.replace('{{ .Resource.spec.replicas }}', '{{ .Resource.spec.replica }}');

describe('embedded API server: the webhook checks in-process', () => {
  let ts: TestServer;
  let kubectl: Kubectl;
  beforeAll(async () => {
    ts = await startTestServer();
    ts.server.objects.addAdmission(new EmbeddedChecks(ts.server));
    kubectl = kubectlFor(ts.kubeconfig, join(ts.dir, 'kubectl-cache'));
    await kubectl.ok([
      'apply',
      '-f',
      join(ROOT, 'config/crd/flowops.io_flows.yaml'),
      '-f',
      join(ROOT, 'repos-example/database-operator/crd.yaml'),
    ]);
  });
  afterAll(() => ts.stop());

  it('kubectl apply of a misspelled Flow is refused with the field and the fix; the example is admitted', async () => {
    const refused = await kubectl(['apply', '-n', 'default', '-f', '-'], BAD);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      'The Flow "database-operator" is invalid: spec.reconcile.steps[0].manifests: unknown field "spec.replica" in Database; did you mean "replicas"?',
    );
    const admitted = await kubectl(['apply', '-n', 'default', '-f', '-'], GOOD);
    expect(admitted.code, admitted.stderr).toBe(0);
  });

  it('a CRD changed under a Flow is read at once; the Flow can still get a finalizer and status and be deleted', async () => {
    // The Database CRD without spec.replicas: the stored Flow now reads an unknown field.
    const crd = example('crd.yaml').replace(/^( +)replicas:\n(\1 +.*\n)+/m, '');
    expect(crd).not.toContain('replicas:');
    await kubectl.ok(['apply', '-f', '-'], crd);
    const edit = await kubectl(['apply', '-n', 'default', '-f', '-'], GOOD.replace(':latest', ':16'));
    expect(edit.stderr).toContain('unknown field "spec.replicas" in Database');
    await kubectl.ok([
      'patch',
      'flow',
      'database-operator',
      '-n',
      'default',
      '--type=merge',
      '-p',
      '{"metadata":{"finalizers":["flowops.io/finalizer"]}}',
    ]);
    await kubectl.ok([
      'patch',
      'flow',
      'database-operator',
      '-n',
      'default',
      '--subresource=status',
      '--type=merge',
      '-p',
      '{"status":{"observedGeneration":1}}',
    ]);
    await kubectl.ok(['delete', 'flow', 'database-operator', '-n', 'default', '--wait=false']);
    await kubectl.ok([
      'patch',
      'flow',
      'database-operator',
      '-n',
      'default',
      '--type=merge',
      '-p',
      '{"metadata":{"finalizers":null}}',
    ]);
    const gone = await kubectl(['get', 'flow', 'database-operator', '-n', 'default']);
    expect(gone.stderr).toContain('NotFound');
  });
});
