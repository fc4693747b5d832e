// Where a pull request's preview is kept for the web view: one ConfigMap per FlowSource and
// request, in the source's namespace, owned by the FlowSource (deleted with it by the garbage
// collector) and deleted when the request closes. A ConfigMap, not the FlowSource's status: the
// status is the sync's to write (a second writer would fight it over resourceVersions) and every
// list of FlowSources would carry every diff; a ConfigMap is read the same way by `flowops up`
// (whose previewer runs on the controllers thread but reaches the API server over HTTP, so
// nothing crosses the thread boundary) and by every replica of `flowops run`. Its text is what the
// comment shows (Secrets masked by shape, their values replaced), cut to MAX_PREVIEW_CHARS.

import type { ObjectChange } from '../diff/index.js';
import type { KubeClient, KubeObject } from '../kube/index.js';
import type { RenderedChildren } from './render-children.js';

export const PREVIEW_LABEL = 'flowops.io/preview-source';
export const PREVIEW_PR_LABEL = 'flowops.io/preview-pr';
export const PREVIEW_DATA_KEY = 'preview.json';
/** Well inside a ConfigMap's 1 MiB, so a huge diff never makes the write fail. */
export const MAX_PREVIEW_CHARS = 256 * 1024;
const FIELD_MANAGER = 'flowops-previews';

export type StoredPreviewState = 'pending' | 'success' | 'failure' | 'error';

/** What one Flow or Operator (or other object) of the commit would become. */
export interface PreviewSummaryEntry {
  object: string;
  change: ObjectChange['change'];
  fields: string[];
  /** For a Flow: the children its rendered watched objects would have. */
  children?: string[];
}

export interface StoredPreview {
  source: { namespace: string; name: string };
  pr: number;
  headRef: string;
  sha: string;
  /** ISO time of the preview. */
  at: string;
  state: StoredPreviewState;
  description: string;
  errors: string[];
  summary: PreviewSummaryEntry[];
  /** The unified diff of every object, the folded part of the page. */
  diff: string;
  rendered?: RenderedChildren;
  /** The text was cut to fit. */
  cut?: boolean;
  /** The forge's id of FlowOps' comment on the request, so a look-alike is never taken for it. */
  commentId?: number;
}

/** A DNS-1123 name of at most 253 characters; the labels find it, the name only has to be unique. */
export function previewObjectName(source: string, pr: number): string {
  const base = `flowops-preview-${source}`.slice(0, 230).replace(/-+$/, '');
  return `${base}-${pr}`;
}

const isFlowish = (object: string): boolean => /^(Flow|Operator) /.test(object);

/** Flows and Operators first, each with its rendered children; then every other object. */
export function summaryOf(changes: readonly ObjectChange[], rendered?: RenderedChildren): PreviewSummaryEntry[] {
  const byFlow = new Map<string, string[]>();
  for (const s of rendered?.samples ?? [])
    for (const f of s.flows) byFlow.set(f, [...(byFlow.get(f) ?? []), ...s.children]);
  const entry = (c: ObjectChange): PreviewSummaryEntry => {
    const name = c.object.split('/').pop() ?? '';
    const children = c.object.startsWith('Flow ') ? byFlow.get(name) : undefined;
    return { object: c.object, change: c.change, fields: c.fields, ...(children ? { children } : {}) };
  };
  return [...changes.filter((c) => isFlowish(c.object)), ...changes.filter((c) => !isFlowish(c.object))].map(entry);
}

/** The preview within MAX_PREVIEW_CHARS: the rendered YAML goes first, then the diff is cut. */
export function bounded(p: StoredPreview): StoredPreview {
  if (JSON.stringify(p).length <= MAX_PREVIEW_CHARS) return p;
  const lean: StoredPreview = {
    ...p,
    cut: true,
    ...(p.rendered
      ? { rendered: { ...p.rendered, samples: p.rendered.samples.map((s) => ({ ...s, yaml: '' })) } }
      : {}),
  };
  const over = JSON.stringify(lean).length - MAX_PREVIEW_CHARS;
  if (over <= 0) return lean;
  // JSON escapes can make the diff longer than its characters: cut twice the excess, plus room.
  return { ...lean, diff: lean.diff.slice(0, Math.max(0, lean.diff.length - over * 2 - 1024)) };
}

export async function storePreview(kube: KubeClient, owner: KubeObject, p: StoredPreview): Promise<void> {
  const namespace = owner.metadata.namespace ?? 'default';
  await kube.apply(
    {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: previewObjectName(p.source.name, p.pr),
        namespace,
        labels: { [PREVIEW_LABEL]: p.source.name, [PREVIEW_PR_LABEL]: String(p.pr) },
        ownerReferences: [
          {
            apiVersion: owner.apiVersion,
            kind: owner.kind,
            name: owner.metadata.name ?? '',
            uid: owner.metadata.uid ?? '',
            controller: true,
          },
        ],
      },
      data: { [PREVIEW_DATA_KEY]: JSON.stringify(bounded(p)) },
    } as KubeObject,
    { fieldManager: FIELD_MANAGER },
  );
}

/** The requests no longer open: their previews go. */
export async function forgetClosed(kube: KubeClient, owner: KubeObject, open: ReadonlySet<number>): Promise<void> {
  const namespace = owner.metadata.namespace ?? 'default';
  const name = owner.metadata.name ?? '';
  const list = await kube.list('v1', 'ConfigMap', { namespace, labelSelector: `${PREVIEW_LABEL}=${name}` });
  for (const cm of list.items) {
    const pr = Number(cm.metadata.labels?.[PREVIEW_PR_LABEL]);
    if (!open.has(pr))
      await kube.delete({ apiVersion: 'v1', kind: 'ConfigMap', namespace, name: cm.metadata.name ?? '' });
  }
}

export function readStoredPreview(cm: KubeObject): StoredPreview | undefined {
  const text = (cm as KubeObject & { data?: Record<string, string> }).data?.[PREVIEW_DATA_KEY];
  if (!text) return undefined;
  try {
    return JSON.parse(text) as StoredPreview;
  } catch {
    return undefined;
  }
}

/** A source's previews, newest request first. */
export async function listPreviews(kube: KubeClient, namespace: string, name: string): Promise<StoredPreview[]> {
  const list = await kube.list('v1', 'ConfigMap', { namespace, labelSelector: `${PREVIEW_LABEL}=${name}` });
  return list.items
    .map(readStoredPreview)
    .filter((p): p is StoredPreview => p !== undefined)
    .sort((a, b) => b.pr - a.pr);
}
