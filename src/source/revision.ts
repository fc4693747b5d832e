/** A FlowSource's ref: follow a branch, a tag, or stay on one commit (a pin keeps its branch for --unpin). */
export interface SourceRef {
  branch?: string | undefined;
  tag?: string | undefined;
  commit?: string | undefined;
}

export const DEFAULT_BRANCH = 'main';

/** The name a revision is reported under: the branch, else the tag; a bare commit has none. */
export function refName(ref: SourceRef): string | undefined {
  if (ref.tag && !ref.branch) return ref.tag;
  return ref.branch ?? (ref.commit ? undefined : DEFAULT_BRANCH);
}

/** `<branch>@sha1:<sha>`, Flux's revision format; `sha1:<sha>` when only a commit is given. */
export function formatRevision(ref: SourceRef, sha: string): string {
  const name = refName(ref);
  return name ? `${name}@sha1:${sha}` : `sha1:${sha}`;
}

/** The commit sha inside a revision string, or undefined. */
export function shaOfRevision(revision: string | undefined): string | undefined {
  return revision ? /sha1:([0-9a-f]{40})$/.exec(revision)?.[1] : undefined;
}

export const isFullSha = (s: string): boolean => /^[0-9a-f]{40}$/.test(s);
