// What each Flow a pull request changes would create, shown before the merge: `flowops render` run
// as a child process on the head commit's files (a throwaway API server of its own, nothing of the
// cluster's touched), against copies of the watched objects that exist (or the repository's sample
// objects, spec.previews.render.objects). Script and http steps are always stubbed, never run:
// a preview never executes code from an unmerged branch. A process of its own keeps the stubbing
// executors out of this process, where the real ones run the applied Flows' scripts.

import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, sep } from 'node:path';
import { promisify } from 'node:util';
import { isMap, parse, parseAllDocuments } from 'yaml';
import type { PreviewRender } from '../api/index.js';
import { labelSelectorString } from '../controller/label-selector.js';
import type { ObjectChange } from '../diff/index.js';
import { maskSecrets } from '../diff/secret-mask.js';
import { type KubeClient, objectYaml, withoutServerNoise, type KubeObject } from '../kube/index.js';
import { PACKAGE_ROOT } from '../package-root.js';
import { describeEntry, entryOf, type DesiredObject } from '../sync/index.js';
import { redactValues, secretValues } from './secret-values.js';

const run = promisify(execFile);

/** One watched object rendered: its children and status, as `flowops render` prints them. */
export interface RenderedSample {
  /** `Kind namespace/name` of the watched object. */
  object: string;
  /** The changed Flows that watch its kind. */
  flows: string[];
  children: string[];
  yaml: string;
}

export interface RenderedChildren {
  samples: RenderedSample[];
  /** Why nothing (or not everything) was rendered, for the comment. */
  notes: string[];
}

export interface RenderChildrenOptions {
  kube: KubeClient;
  gitDir: string;
  sha: string;
  /** The FlowSource's spec.path ('' for the whole repository). */
  prefix: string;
  items: readonly DesiredObject[];
  changes: readonly ObjectChange[];
  config: PreviewRender | undefined;
  /** How long the render may take (default 90 s). */
  timeoutMs?: number;
}

interface WatchSpec {
  apiVersion: string;
  kind: string;
  namespace?: string;
  labelSelector?: unknown;
}

interface FlowDef {
  name: string;
  namespace: string;
  watch: WatchSpec;
  stepped: Array<{ name: string; type: string }>;
}

const DEFAULT_MAX = 5;
const STEP_LISTS = ['reconcile', 'onDelete', 'onError'] as const;
const FLOW_LABEL_ANNOTATIONS = /^(flowops\.io\/|kubectl\.kubernetes\.io\/last-applied-configuration$)/;

const asRecord = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** The Flow's watch and its step names, read from an object the sync's validation already accepted. */
function flowDef(o: KubeObject): FlowDef | undefined {
  const spec = asRecord((o as { spec?: unknown }).spec);
  const watch = asRecord(spec.watch);
  const apiVersion = str(watch.apiVersion);
  const kind = str(watch.kind);
  if (!apiVersion || !kind) return undefined;
  const stepped = STEP_LISTS.flatMap((list) => {
    const steps = asRecord(spec[list]).steps;
    const found = (Array.isArray(steps) ? steps : []).map(asRecord);
    return found.map((s) => ({ name: str(s.name) ?? '', type: str(s.type) ?? '' }));
  });
  const ns = str(watch.namespace);
  return {
    name: o.metadata.name ?? '',
    namespace: o.metadata.namespace ?? 'default',
    watch: { apiVersion, kind, ...(ns ? { namespace: ns } : {}), labelSelector: watch.labelSelector },
    stepped,
  };
}

const isFlow = (o: KubeObject): boolean => o.apiVersion === 'flowops.io/v1' && o.kind === 'Flow';
const describe = (o: KubeObject): string =>
  `${o.kind} ${o.metadata.namespace ? `${o.metadata.namespace}/` : ''}${o.metadata.name}`;

/** A live watched object as a render's input: what a user wrote, not what the server or a Flow added. */
function sampleOf(live: KubeObject): KubeObject {
  const clean = withoutServerNoise(live);
  const { metadata } = clean;
  const annotations = Object.fromEntries(
    Object.entries(metadata.annotations ?? {}).filter(([k]) => !FLOW_LABEL_ANNOTATIONS.test(k)),
  );
  const copy: KubeObject & { status?: unknown } = {
    ...clean,
    metadata: {
      name: metadata.name ?? '',
      ...(metadata.namespace ? { namespace: metadata.namespace } : {}),
      ...(metadata.labels ? { labels: metadata.labels } : {}),
      ...(Object.keys(annotations).length ? { annotations } : {}),
    },
  };
  delete copy.status;
  return copy;
}

/** A path the FlowSource's spec names, inside the exported commit; anything leading out of it is refused. */
function insideRepo(root: string, path: string, field: string): string {
  const full = resolve(root, path);
  if (full !== root && !full.startsWith(root + sep))
    throw new RenderInputError(`spec.previews.render.${field}: ${path} is outside the repository`);
  if (!existsSync(full)) throw new RenderInputError(`spec.previews.render.${field}: ${path} is not in this commit`);
  return full;
}

class RenderInputError extends Error {}

/** Every script and http step gets outputs: the repository's stub file's, else none (`{}`). */
function stubsYaml(flows: readonly FlowDef[], repoStubs: Record<string, unknown>): string {
  const out: Record<string, unknown> = { ...repoStubs };
  for (const f of flows)
    for (const s of f.stepped)
      if ((s.type === 'script' || s.type === 'http') && !(`${f.name}/${s.name}` in out) && !(s.name in out))
        out[`${f.name}/${s.name}`] = {};
  return objectYaml(out);
}

async function liveSamples(kube: KubeClient, flows: readonly FlowDef[], max: number): Promise<KubeObject[]> {
  const out = new Map<string, KubeObject>();
  for (const f of flows) {
    const selector = labelSelectorString(f.watch.labelSelector);
    // A kind whose CRD only this commit brings has no objects yet.
    const list = await kube
      .list(f.watch.apiVersion, f.watch.kind, {
        ...(f.watch.namespace ? { namespace: f.watch.namespace } : {}),
        ...(selector ? { labelSelector: selector } : {}),
      })
      .catch(() => ({ items: [] }));
    for (const item of list.items.slice(0, max)) out.set(describe(item), sampleOf(item));
  }
  return [...out.values()];
}

/** The live CRDs of the watched kinds the commit does not define, so that the render serves them. */
async function liveCrds(
  kube: KubeClient,
  flows: readonly FlowDef[],
  items: readonly DesiredObject[],
): Promise<KubeObject[]> {
  const groupOf = (apiVersion: string): string => (apiVersion.includes('/') ? (apiVersion.split('/')[0] ?? '') : '');
  const inCommit = new Set(
    items.filter((i) => i.object.kind === 'CustomResourceDefinition').map((i) => i.object.metadata.name),
  );
  const wanted = flows.filter((f) => groupOf(f.watch.apiVersion) !== '');
  if (!wanted.length) return [];
  const all = (await kube.list('apiextensions.k8s.io/v1', 'CustomResourceDefinition').catch(() => ({ items: [] })))
    .items;
  return all
    .filter((crd) => !inCommit.has(crd.metadata.name))
    .filter((crd) => {
      const spec = asRecord((crd as { spec?: unknown }).spec);
      const names = asRecord(spec.names);
      return wanted.some((f) => groupOf(f.watch.apiVersion) === spec.group && names.kind === f.watch.kind);
    })
    .map((crd) => {
      const { status: _status, ...rest } = withoutServerNoise(crd) as KubeObject & { status?: unknown };
      return { ...rest, metadata: { name: crd.metadata.name ?? '' } };
    });
}

interface ChildRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `flowops render`, with an environment of its own: no token or kubeconfig of this process reaches it. */
function renderProcess(args: readonly string[], home: string, timeoutMs: number): Promise<ChildRun> {
  return new Promise((done) => {
    const env = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: home,
      TMPDIR: home,
      FLOWOPS_LOG_LEVEL: 'error',
      ...(process.env.FLOWOPS_FROM_SOURCE ? { FLOWOPS_FROM_SOURCE: process.env.FLOWOPS_FROM_SOURCE } : {}),
    };
    const child = spawn(process.execPath, [join(PACKAGE_ROOT, 'bin', 'flowops.js'), 'render', ...args], {
      env,
      cwd: home,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      stderr += `\nthe render took longer than ${timeoutMs / 1000}s and was stopped`;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    });
    child.on('error', (e) => {
      clearTimeout(timer);
      done({ code: null, stdout, stderr: `${stderr}\n${e.message}` });
    });
  });
}

/** The render's documents with every Secret child masked by shape and every secret value replaced. */
function readRendered(stdout: string, flows: readonly FlowDef[], values: readonly string[]): RenderedSample[] {
  const out: RenderedSample[] = [];
  for (const doc of parseAllDocuments(stdout)) {
    if (!isMap(doc.contents)) continue;
    const d = doc.toJS() as { apiVersion?: string; kind?: string; metadata?: KubeObject['metadata'] } & {
      children?: KubeObject[];
      status?: unknown;
    };
    if (!d.kind || !d.metadata) continue;
    const rendered = d.children ?? [];
    const children = rendered.map((c) => maskSecrets(undefined, c).desired ?? c);
    const moreValues = [...values, ...secretValues(rendered)].sort((a, b) => b.length - a.length);
    const owner: KubeObject = { apiVersion: d.apiVersion ?? '', kind: d.kind, metadata: d.metadata };
    out.push({
      object: describe(owner),
      flows: flows.filter((f) => f.watch.kind === d.kind && f.watch.apiVersion === d.apiVersion).map((f) => f.name),
      children: children.map(describe),
      yaml: redactValues(objectYaml({ ...d, children }), moreValues),
    });
  }
  return out;
}

/** The rendered children of every Flow the commit changes or adds; an empty result when none does. */
export async function renderChangedFlows(opts: RenderChildrenOptions): Promise<RenderedChildren> {
  const max = opts.config?.maxObjects ?? DEFAULT_MAX;
  const touched = new Set(opts.changes.filter((c) => c.change !== 'pruned').map((c) => c.object));
  const allFlows = opts.items.filter((i) => isFlow(i.object));
  const changed = allFlows
    .filter((i) => touched.has(describeEntry(entryOf(i))))
    .map((i) => flowDef(i.object))
    .filter((f): f is FlowDef => f !== undefined);
  if (!changed.length || max === 0) return { samples: [], notes: [] };
  const values = secretValues(opts.items.map((i) => i.object));
  const tmp = mkdtempSync(join(tmpdir(), 'flowops-preview-render-'));
  try {
    const repo = join(tmp, 'repo');
    mkdirSync(repo);
    const archive = await run('git', ['--git-dir', opts.gitDir, 'archive', '--format=tar', opts.sha], {
      encoding: 'buffer',
      maxBuffer: 512 * 1024 * 1024,
    });
    await new Promise<void>((ok, fail) => {
      const tar = spawn('tar', ['-x', '-C', repo], { stdio: ['pipe', 'ignore', 'pipe'] });
      tar.on('close', (code) => (code === 0 ? ok() : fail(new RenderInputError('unpacking the commit failed'))));
      tar.stdin.end(archive.stdout);
    });
    const paths = [opts.prefix ? join(repo, opts.prefix) : repo];
    const crds = await liveCrds(opts.kube, changed, opts.items);
    if (crds.length) {
      writeFileSync(join(tmp, 'live-crds.yaml'), crds.map(objectYaml).join('---\n'));
      paths.push(join(tmp, 'live-crds.yaml'));
    }
    let objects: string;
    if (opts.config?.objects) objects = insideRepo(repo, opts.config.objects, 'objects');
    else {
      const samples = await liveSamples(opts.kube, changed, max);
      if (!samples.length)
        return {
          samples: [],
          notes: [
            `No watched object of ${changed.map((f) => `Flow ${f.name}`).join(', ')} exists yet: nothing to render ` +
              '(spec.previews.render.objects names sample objects in the repository).',
          ],
        };
      objects = join(tmp, 'samples.yaml');
      writeFileSync(objects, samples.map(objectYaml).join('---\n'));
    }
    const repoStubs = opts.config?.stubs
      ? asRecord(parse(readFileSync(insideRepo(repo, opts.config.stubs, 'stubs'), 'utf8')))
      : {};
    const stubFile = join(tmp, 'stubs.yaml');
    const defs = allFlows.map((i) => flowDef(i.object)).filter((f): f is FlowDef => f !== undefined);
    writeFileSync(stubFile, stubsYaml(defs, repoStubs));
    const home = join(tmp, 'home');
    mkdirSync(home);
    const args = [...paths, '--objects', objects, '--stub', stubFile, '--source-dir', repo, '--timeout', '60s'];
    const result = await renderProcess(args, home, opts.timeoutMs ?? 90_000);
    const clean = (t: string): string => redactValues(t.replaceAll(tmp + sep, '').replaceAll(tmp, '.'), values);
    const problems = clean(result.stderr)
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !/^flowops render: \d+ problems?; nothing rendered$/.test(l));
    if (result.code !== 0) return { samples: [], notes: [`The render failed: ${problems.slice(0, 5).join('; ')}`] };
    return { samples: readRendered(result.stdout, changed, values), notes: problems.slice(0, 10) };
  } catch (e) {
    if (!(e instanceof RenderInputError)) throw e;
    return { samples: [], notes: [e.message] };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
