import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FLOWSOURCE_API_VERSION, FLOWSOURCE_KIND } from '../api/index.js';
import type { KubeObject } from '../kube/index.js';
import { createLogger } from '../log/index.js';
import { PullRequestPreviewer } from '../preview/index.js';
import { kubeFrom } from './cluster-flags.js';
import { SetupError } from '../util/index.js';
import { sourceRefOf } from './source-arg.js';

/**
 * `flowops preview [--source NS/NAME] [--pr N]`: what `flowops up` and `run` do in the background
 * for a FlowSource with spec.previews, once, now: each open pull request's head validated, diffed
 * against live, and its comment and commit status written on the forge. Nothing is applied.
 * Exit codes: 0 every head previews clean (or was previewed already), 1 one is rejected or failed, 2 setup.
 */

export interface PreviewFlags {
  source?: string;
  pr?: string;
  data?: string;
  viewUrl?: string;
  kubeconfig?: string;
}

export interface PreviewOutput {
  stdout(text: string): void;
  stderr(text: string): void;
}

export async function runPreview(flags: PreviewFlags, out: PreviewOutput): Promise<number> {
  const only = flags.pr === undefined ? undefined : Number(flags.pr);
  if (only !== undefined && (!Number.isInteger(only) || only <= 0))
    throw new SetupError(`--pr: expected a pull request number, got "${flags.pr}"`);
  const kube = await kubeFrom({ kubeconfig: flags.kubeconfig });
  let src: KubeObject | undefined;
  if (flags.source) {
    const ref = sourceRefOf(flags.source, kube);
    src = await kube.get(ref);
    if (!src) throw new SetupError(`FlowSource ${ref.namespace}/${ref.name} not found (--source)`);
  } else {
    const all = (await kube.list(FLOWSOURCE_API_VERSION, FLOWSOURCE_KIND)).items;
    if (all.length !== 1)
      throw new SetupError(
        all.length ? 'several FlowSources: choose one with --source NAMESPACE/NAME' : 'no FlowSource in the cluster',
      );
    src = all[0];
  }
  if (!src) throw new SetupError('no FlowSource');
  const dataDir = flags.data ?? mkdtempSync(join(tmpdir(), 'flowops-preview-'));
  const log = createLogger({ command: 'preview' });
  log.level = process.env.FLOWOPS_LOG_LEVEL ?? 'warn';
  try {
    const previewer = new PullRequestPreviewer({
      kube,
      log,
      dataDir,
      ...(flags.viewUrl ? { viewUrl: flags.viewUrl } : {}),
    });
    const outcomes = await previewer.previewSource(src, only).catch((e: unknown) => {
      throw new SetupError(`preview: ${e instanceof Error ? e.message : String(e)}`);
    });
    for (const o of outcomes) out.stdout(`#${o.pr}\t${o.sha.slice(0, 12)}\t${o.state}\t${o.description}\n`);
    const none = only === undefined ? 'no open pull request' : `#${only} is not open`;
    if (!outcomes.length) out.stderr(`flowops preview: ${none}\n`);
    return outcomes.some((o) => o.state === 'failure' || o.state === 'error') ? 1 : 0;
  } finally {
    if (!flags.data) rmSync(dataDir, { recursive: true, force: true });
  }
}
