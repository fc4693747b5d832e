import {
  FLOWSOURCE_API_VERSION,
  FLOWSOURCE_KIND,
  flowSourceSpecSchema,
  type FlowSourceStatus,
  formatValidationError,
} from '../api/index.js';
import { sourcePathPrefix } from '../controller/flowsource/reconciler.js';
import { definitionsFromCommit, definitionsFromDir, type LocalDefinitions, previewSync } from '../diff/index.js';
import type { KubeClient, KubeObject } from '../kube/index.js';
import { planCommit, listServerCrds } from '../sync/index.js';
import { kubeFrom } from './cluster-flags.js';
import { SetupError } from '../util/index.js';
import { sourceRefOf } from './source-arg.js';

/**
 * `flowops diff [--source NS/NAME] [DIR | --commit SHA]`: what pushing these definitions would
 * change in the live cluster, as `flux diff kustomization` and `argocd app diff --local` show it.
 * The definitions are validated as a unit by the sync's own planner, then dry-run applied.
 * Exit codes: 0 no change, 1 changes, 2 invalid definitions (or no cluster).
 */

export interface DiffFlags {
  source?: string;
  commit?: string;
  kubeconfig?: string;
}

export interface DiffOutput {
  stdout(text: string): void;
  stderr(text: string): void;
}

/** `--source`, or the cluster's only FlowSource (`flowops up` makes one, default/flows). */
async function findSource(kube: KubeClient, arg: string | undefined): Promise<KubeObject> {
  if (arg) {
    const ref = sourceRefOf(arg, kube);
    const found = await kube.get(ref);
    if (!found) throw new SetupError(`FlowSource ${ref.namespace}/${ref.name} not found (--source)`);
    return found;
  }
  const all = (await kube.list(FLOWSOURCE_API_VERSION, FLOWSOURCE_KIND)).items;
  if (all.length === 1) return all[0]!;
  const names = all.map((s) => `${s.metadata.namespace}/${s.metadata.name}`).join(', ');
  throw new SetupError(
    all.length
      ? `several FlowSources (${names}): choose one with --source NAMESPACE/NAME`
      : 'no FlowSource in the cluster: diff compares with what a FlowSource applied (flowops up makes default/flows)',
  );
}

export async function runDiff(dir: string | undefined, flags: DiffFlags, out: DiffOutput): Promise<number> {
  if (dir && flags.commit) throw new SetupError('give a folder or --commit SHA, not both');
  const kube = await kubeFrom({ kubeconfig: flags.kubeconfig });
  const src = await findSource(kube, flags.source);
  const key = `${src.metadata.namespace}/${src.metadata.name}`;
  const spec = flowSourceSpecSchema.safeParse(src.spec);
  if (!spec.success)
    throw new SetupError(`FlowSource ${key} has an invalid spec: ${spec.error.issues[0]?.message ?? ''}`);
  const status = (src.status ?? {}) as FlowSourceStatus;
  const prefix = sourcePathPrefix(spec.data);
  const defs: LocalDefinitions = flags.commit
    ? definitionsFromCommit(process.cwd(), flags.commit, prefix)
    : definitionsFromDir(dir ?? '.', prefix);
  try {
    const plan = planCommit({
      files: defs.files,
      removed: [],
      full: true,
      inventory: status.inventory ?? [],
      defaultNamespace: src.metadata.namespace ?? 'default',
      serverCrds: await listServerCrds(kube),
    });
    if (!plan.ok) {
      for (const e of plan.errors)
        out.stderr(`${formatValidationError({ ...e, file: defs.localPath.get(e.file) ?? e.file })}\n`);
      out.stderr(
        `flowops diff: ${plan.errors.length} error(s); a push of ${defs.origin} would be rejected as a whole, nothing applied\n`,
      );
      return 2;
    }
    for (const w of plan.warnings) {
      out.stderr(`${formatValidationError({ ...w, file: defs.localPath.get(w.file) ?? w.file })}\n`);
    }
    const preview = await previewSync({
      kube,
      source: key,
      revision: status.lastAppliedRevision ?? 'local',
      items: plan.apply,
      inventory: status.inventory ?? [],
      origin: defs.origin,
    });
    for (const c of preview.changes) out.stdout(c.diff);
    for (const s of preview.skipped) out.stderr(`${s}\n`);
    const count = (kind: string): number => preview.changes.filter((c) => c.change === kind).length;
    out.stderr(
      preview.changes.length
        ? `flowops diff: against FlowSource ${key} (${status.lastAppliedRevision ?? 'nothing applied yet'}): ${count('changed')} changed, ${count('created')} created, ${count('pruned')} pruned\n`
        : `flowops diff: no changes against FlowSource ${key} (${status.lastAppliedRevision ?? 'nothing applied yet'})\n`,
    );
    return preview.changes.length ? 1 : 0;
  } finally {
    defs.cleanup();
  }
}
