import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { attempted, flowNames, flowSource, gitopsEnvironment, ready } from '../gitops/fixtures.js';
import { CRDS, expectedFindings, INVALID } from './corpus.js';

describe('a Git commit with a template type error (a real Git server, the embedded API server)', () => {
  const { env, git } = gitopsEnvironment();

  it('is rejected whole with file:line:column in the FlowSource status; a warning alone does not reject', async () => {
    const repo = git().repo('typed');
    const bad = join(INVALID, 'manifest-literal-type.yaml');
    const sha = await repo.commit({
      'ops/crds.yaml': readFileSync(CRDS, 'utf8'),
      'ops/store.yaml': readFileSync(bad, 'utf8'),
      'ops/fine.yaml': readFileSync(join(INVALID, 'maybe-absent.yaml'), 'utf8'),
    });
    await env().kube.create(flowSource('typed', repo.url, { path: 'ops' }));
    const s = await attempted(env().kube, 'typed', sha);
    expect(ready(s)).toMatchObject({ status: 'False', reason: 'ValidationFailed' });
    expect(ready(s)!.message).toContain(`ops/store.yaml:${expectedFindings(bad)[0]}`);
    // Nothing of the commit applied: not even the Flow that only had a warning.
    expect(await flowNames(env().kube)).toEqual([]);

    const fixed = await repo.commit({ 'ops/store.yaml': null });
    env().controllers.sources!.trigger('default', 'typed');
    const s2 = await attempted(env().kube, 'typed', fixed);
    expect(ready(s2)).toMatchObject({ status: 'True', reason: 'Applied' });
    expect(await flowNames(env().kube)).toEqual(['maybe-absent']);
  });
});
