import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { kubeControllerManagerOf } from '../../src/cli/kcm-flags.js';
import { SetupError } from '../../src/util/setup-error.js';

// Which kube-controller-manager `up --kube-controller-manager` runs: a given path, or the control-plane cache's
// build of the version the embedded server reports (FLOWOPS_CACHE points at a cache laid out as lib.sh lays it).
describe('up --kube-controller-manager: the binary', () => {
  let cache: string;
  let before: string | undefined;
  const build = (folder: string): string => {
    const bin = join(cache, 'control-plane', folder, 'bin');
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, 'kube-controller-manager'), '');
    return join(bin, 'kube-controller-manager');
  };
  beforeEach(() => {
    cache = mkdtempSync(join(tmpdir(), 'flowops-kcm-cache-'));
    before = process.env.FLOWOPS_CACHE;
    process.env.FLOWOPS_CACHE = cache;
  });
  afterEach(() => {
    if (before === undefined) delete process.env.FLOWOPS_CACHE;
    else process.env.FLOWOPS_CACHE = before;
  });

  it('is none without the flag', async () => {
    build('kubernetes-v1.34.4-etcd-v3.6.4');
    expect(await kubeControllerManagerOf({ kubernetesVersion: '1.34.4' })).toBeUndefined();
  });

  it("is the cached build of the version the server reports, not another version's", async () => {
    build('kubernetes-v1.33.1-etcd-v3.5.21');
    const wanted = build('kubernetes-v1.34.4-etcd-v3.6.4');
    expect(await kubeControllerManagerOf({ kubeControllerManager: true, kubernetesVersion: '1.34.4' })).toBe(wanted);
  });

  it('without a build of that version, is a SetupError naming the flag, the version and the cache', async () => {
    build('kubernetes-v1.33.1-etcd-v3.5.21');
    const err = await kubeControllerManagerOf({ kubeControllerManager: true, kubernetesVersion: '1.34.4' }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(SetupError);
    expect((err as SetupError).message).toBe(
      `--kube-controller-manager: no kube-controller-manager v1.34.4 in ${join(cache, 'control-plane')} ` +
        '(scripts/control-plane/build.sh builds it there); give the path of one: --kube-controller-manager=PATH',
    );
  });

  it('is the path given when it is a file, and a SetupError naming it when not', async () => {
    const file = build('anywhere');
    expect(await kubeControllerManagerOf({ kubeControllerManager: file })).toBe(file);
    const dir = join(cache, 'control-plane');
    await expect(kubeControllerManagerOf({ kubeControllerManager: dir })).rejects.toThrow(
      `--kube-controller-manager=${dir}: no such file (want the path of a kube-controller-manager binary)`,
    );
  });
});
