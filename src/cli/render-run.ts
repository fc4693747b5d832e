import { findCondition, crdKinds, type KubeObject } from '../kube/index.js';
import { parseDuration, parseFlow, compareValidationErrors, formatValidationError } from '../api/index.js';
import { createLogger } from '../log/index.js';
import {
  readDefinitions,
  compareGolden,
  updateGolden,
  startRenderSession,
  renderedObjects,
  kindKey,
  readSampleObjects,
  type WatchedKind,
  sourceDirOf,
  installStubs,
  missingStubs,
  StepStubs,
} from '../render/index.js';
import { SetupError } from '../util/setup-error.js';

/**
 * `flowops render PATH... --objects DIR|FILE`: the Flows under PATH run against sample objects on
 * a throwaway embedded API server, and what each sample got (children, status) printed as YAML,
 * or compared with golden files: an operator repository's unit test, with no cluster.
 * Exit codes: 0 rendered (or matches), 1 differs from the golden files, 2 invalid input.
 */

export interface RenderFlags {
  objects: string[];
  stub?: string;
  allowScripts?: boolean;
  allowHttp?: boolean;
  sourceDir?: string;
  expect?: string;
  update?: boolean;
  timeout: string;
  now: string;
}

export interface RenderOutput {
  stdout(text: string): void;
  stderr(text: string): void;
}

/** Go-style, as Flows write durations: 60s, 2m, 1m30s. */
function timeoutMs(v: string): number {
  try {
    return parseDuration(v);
  } catch (e) {
    throw new SetupError(`--timeout: ${(e as Error).message}`);
  }
}

/** Prints the problems and says that nothing was rendered. */
function invalid(out: RenderOutput, lines: readonly string[]): number {
  for (const line of lines) out.stderr(`${line}\n`);
  out.stderr(`flowops render: ${lines.length} problem${lines.length === 1 ? '' : 's'}; nothing rendered\n`);
  return 2;
}

export async function runRender(paths: readonly string[], flags: RenderFlags, out: RenderOutput): Promise<number> {
  if (flags.update && !flags.expect)
    throw new SetupError('--update needs --expect DIR (the folder of golden files to write)');
  const limit = timeoutMs(flags.timeout);
  if (Number.isNaN(Date.parse(flags.now)))
    throw new SetupError(`--now: expected an RFC 3339 time such as 2025-01-01T00:00:00Z, got "${flags.now}"`);
  const defs = readDefinitions(paths);
  if (defs.errors.length)
    return invalid(out, [...defs.errors, ...defs.warnings].sort(compareValidationErrors).map(formatValidationError));
  for (const w of defs.warnings.sort(compareValidationErrors)) out.stderr(`${formatValidationError(w)}\n`);
  if (!defs.flows.length)
    return invalid(out, [`${paths.join(', ')}: no Flow found (a document with apiVersion: flowops.io/v1, kind: Flow)`]);
  const flows = defs.flows.map((f) => ({ ...f, spec: parseFlow(f.flow).spec, name: f.flow.metadata.name! }));

  const watched: WatchedKind[] = flows.map((f) => ({
    apiVersion: f.spec.watch.apiVersion,
    kind: f.spec.watch.kind,
    namespace: f.spec.watch.namespace,
  }));
  const clusterScoped = new Set(
    defs.crds
      .filter((c) => (c.spec as { scope?: string } | undefined)?.scope === 'Cluster')
      .flatMap((c) => crdKinds(c).map(kindKey)),
  );
  const samples = readSampleObjects(flags.objects, watched, clusterScoped);
  if (samples.errors.length)
    return invalid(out, samples.errors.sort(compareValidationErrors).map(formatValidationError));
  if (!samples.objects.length) return invalid(out, [`--objects ${flags.objects.join(', ')}: no objects found`]);

  const stubs = flags.stub ? StepStubs.fromFile(flags.stub) : StepStubs.none();
  const policy = { allowScripts: flags.allowScripts === true, allowHttp: flags.allowHttp === true };
  const unstubbed = missingStubs(flows, stubs, policy);
  if (unstubbed.length) return invalid(out, unstubbed);
  installStubs(stubs, policy);

  const log = createLogger({ command: 'render' });
  // The reconciles' own warnings (a failing step) end up in the rendered status; logs are for debugging.
  log.level = process.env.FLOWOPS_LOG_LEVEL ?? 'error';
  const session = await startRenderSession({
    crds: defs.crds,
    flows: flows.map((f) => ({
      flow: f.flow,
      sourceDir: sourceDirOf(f.file, f.spec, flags.sourceDir),
      file: { path: f.file, text: f.text },
    })),
    samples: samples.objects.map((s) => s.object),
    log,
    timeoutMs: limit,
    now: flags.now,
  }).catch((e: unknown) => {
    // A sample the server refuses (422 against its CRD's schema) or reconciles that never settle.
    throw new SetupError(`render: ${e instanceof Error ? e.message : String(e)}`);
  });
  try {
    const rendered = await renderedObjects(session.kube, session.reconciled);
    // A failed run is part of what is rendered (its condition is in the output), but easy to miss in a long document.
    for (const line of failedRuns(session.reconciled)) out.stderr(`${line}\n`);
    if (!flags.expect) {
      out.stdout(rendered.map((r) => r.yaml).join('---\n'));
      return 0;
    }
    if (flags.update) {
      const changed = updateGolden(flags.expect, rendered);
      out.stderr(`flowops render: ${rendered.length} golden file(s) in ${flags.expect}, ${changed.length} written\n`);
      return 0;
    }
    const result = compareGolden(flags.expect, rendered);
    for (const d of result.diffs) out.stdout(d);
    for (const f of result.stale)
      out.stderr(`${f}: golden file without a rendered object (remove it, or add its object to --objects)\n`);
    const differs = result.diffs.length + result.stale.length;
    out.stderr(
      differs
        ? `flowops render: ${result.diffs.length} of ${rendered.length} object(s) differ from ${flags.expect}\n`
        : `flowops render: ${rendered.length} object(s) match ${flags.expect}\n`,
    );
    return differs ? 1 : 0;
  } finally {
    await session.close();
  }
}

/** `Kind ns/name: message` for each sample whose last run failed (not merely waiting for its children). */
function failedRuns(objects: readonly KubeObject[]): string[] {
  return objects.flatMap((o) => {
    const ready = findCondition(o, 'Ready');
    if (!ready || ready.status === 'True' || ready.reason === 'ChildrenNotReady') return [];
    return [
      `flowops render: ${o.kind} ${o.metadata.namespace ? `${o.metadata.namespace}/` : ''}${o.metadata.name}: reconcile failed (${ready.reason}): ${ready.message}`,
    ];
  });
}
