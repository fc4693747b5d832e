import git, { type TreeEntry } from 'isomorphic-git';
import type { GitContext } from './git-context.js';

/** One file that differs between two commits, inside the source's path (paths are relative to it). */
export interface FileChange {
  path: string;
  status: 'added' | 'modified' | 'deleted';
  /** The blob at the new commit (added / modified) or at the old one (deleted). */
  oid: string;
  /** A YAML file that may hold definitions (not inside a Helm chart or kustomize base, not hidden). */
  definition: boolean;
}

export interface DiffOptions {
  ctx: GitContext;
  /** The last applied commit; undefined lists every file of `to` as added. */
  from?: string | undefined;
  to: string;
  /** Folder inside the repository ("" or "." for all of it). */
  path: string;
}

const YAML = /\.ya?ml$/i;
// Folders that are inputs to a Flow's template steps, not objects to apply.
export const INPUT_MARKERS = new Set(['Chart.yaml', 'kustomization.yaml', 'kustomization.yml', 'Kustomization']);

/**
 * The files changed between two commits under `path`. Trees whose ids are equal are never opened,
 * so the cost follows the size of the change, not of the repository (a hand-written readTree
 * recursion: research measured it 3× faster than isomorphic-git's generic `walk`).
 */
export async function diffCommits(opts: DiffOptions): Promise<FileChange[]> {
  const { ctx } = opts;
  const segments = opts.path.split('/').filter((s) => s && s !== '.');
  const [a, b] = await Promise.all([
    opts.from ? subtreeOf(ctx, opts.from, segments) : undefined,
    subtreeOf(ctx, opts.to, segments),
  ]);
  const out: FileChange[] = [];
  await compare(ctx, a, b, '', { a: false, b: false }, out);
  return out.sort((x, y) => (x.path < y.path ? -1 : x.path > y.path ? 1 : 0));
}

/** The tree id of `segments` inside a commit's tree, or undefined when the folder does not exist. */
async function subtreeOf(ctx: GitContext, commit: string, segments: string[]): Promise<string | undefined> {
  let oid = (await git.readCommit({ fs: ctx.fs, gitdir: ctx.gitdir, oid: commit, cache: ctx.cache })).commit.tree;
  for (const seg of segments) {
    const entry = (await readEntries(ctx, oid)).find((e) => e.path === seg);
    if (entry?.type !== 'tree') return undefined;
    oid = entry.oid;
  }
  return oid;
}

async function readEntries(ctx: GitContext, oid: string | undefined): Promise<TreeEntry[]> {
  if (!oid) return [];
  return (await git.readTree({ fs: ctx.fs, gitdir: ctx.gitdir, oid, cache: ctx.cache })).tree;
}

const isInputFolder = (entries: TreeEntry[]): boolean =>
  entries.some((e) => e.type === 'blob' && INPUT_MARKERS.has(e.path));

export function isDefinition(path: string, insideInput: boolean): boolean {
  return !insideInput && YAML.test(path) && !path.split('/').some((s) => s.startsWith('.'));
}

async function compare(
  ctx: GitContext,
  a: string | undefined,
  b: string | undefined,
  prefix: string,
  input: { a: boolean; b: boolean },
  out: FileChange[],
): Promise<void> {
  if (a === b) return;
  const [ea, eb] = await Promise.all([readEntries(ctx, a), readEntries(ctx, b)]);
  const inA = input.a || isInputFolder(ea);
  const inB = input.b || isInputFolder(eb);
  const byName = new Map<string, { a?: TreeEntry; b?: TreeEntry }>();
  for (const e of ea) byName.set(e.path, { a: e });
  for (const e of eb) byName.set(e.path, { ...byName.get(e.path), b: e });
  const nested: Array<Promise<void>> = [];
  for (const [name, { a: x, b: y }] of byName) {
    if (x && y && x.oid === y.oid && x.type === y.type) continue;
    const path = prefix + name;
    const xTree = x?.type === 'tree' ? x.oid : undefined;
    const yTree = y?.type === 'tree' ? y.oid : undefined;
    if (xTree || yTree) nested.push(compare(ctx, xTree, yTree, `${path}/`, { a: inA, b: inB }, out));
    const xBlob = x?.type === 'blob' ? x : undefined;
    const yBlob = y?.type === 'blob' ? y : undefined;
    if (xBlob && yBlob) out.push({ path, status: 'modified', oid: yBlob.oid, definition: isDefinition(path, inB) });
    else if (yBlob) out.push({ path, status: 'added', oid: yBlob.oid, definition: isDefinition(path, inB) });
    else if (xBlob) out.push({ path, status: 'deleted', oid: xBlob.oid, definition: isDefinition(path, inA) });
  }
  await Promise.all(nested);
}
