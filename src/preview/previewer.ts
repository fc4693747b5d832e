// Pull-request previews for the FlowSources that ask for them (spec.previews): list the open
// requests into the followed branch, and for each head commit not yet previewed, preview it
// (preview-commit.ts), write the one comment (found again by its hidden marker and edited in
// place) and a commit status on the head. Nothing here writes to the cluster, and no step of the
// request's Flows runs: the dry run only asks the API server what it would store.

import { join } from 'node:path';
import { flowSourceSpecSchema, type FlowSourceSpec, FLOW_API_VERSION, PROVIDER_KIND } from '../api/index.js';
import { sourceCredentials } from '../controller/index.js';
import type { KubeClient, KubeObject } from '../kube/index.js';
import type { Logger } from '../log/index.js';
import {
  send,
  type Connection,
  type ResolvedProvider,
  commitStatusRequest,
  resolveProvider,
  type CommitStateName,
} from '../notify/index.js';
import { markerOf, previewComment, previewedCommit } from './comment.js';
import { PreviewError } from './errors.js';
import { fetchHead } from './fetch-head.js';
import {
  COMMENT_LIMIT,
  FORGE_TYPES,
  createCommentRequest,
  listCommentsRequest,
  listPullRequestsRequest,
  readComment,
  readComments,
  readPullRequests,
  updateCommentRequest,
  PAGE,
  type ForgeComment,
  type ForgeType,
  type PullRequest,
} from './forge-api.js';
import { previewCommit, type CommitPreviewResult } from './preview-commit.js';
import {
  forgetClosed,
  listPreviews,
  storePreview,
  summaryOf as summaryEntries,
  type StoredPreview,
} from './preview-store.js';

export interface PreviewerOptions {
  kube: KubeClient;
  log: Logger;
  /** `<dataDir>/previews/<namespace>/<name>` is each source's bare repository of pull-request heads. */
  dataDir: string;
  /** The web view's address, for the status's link. */
  viewUrl?: string;
}

/** What one pull request's pass did. */
export interface PreviewOutcome {
  pr: number;
  sha: string;
  state: CommitStateName | 'unchanged';
  commentId?: number;
  description: string;
}

interface Forge {
  type: ForgeType;
  provider: ResolvedProvider;
  connection: Connection;
}

/** 2,000 comments: a request with more gets a second preview comment rather than endless listing. */
const MAX_PAGES = 20;

/** A fork's clone URL: the source's, with the fork's repository path (same host, same credentials). */
function forkUrl(base: string, repo: string): string {
  const u = new URL(base);
  u.pathname = `/${repo.split('/').map(encodeURIComponent).join('/')}.git`;
  return u.toString();
}

const keyOf = (src: KubeObject): string => `${src.metadata.namespace ?? 'default'}/${src.metadata.name}`;

const firstProblem = (r: CommitPreviewResult): string | undefined => {
  const e = r.errors[0];
  if (e) return `rejected: ${e.file}:${e.line}:${e.column}: ${e.field}: ${e.message}`;
  if (r.dryRunError !== undefined) return `dry run refused: ${r.dryRunError.split('\n')[0] ?? ''}`;
  return undefined;
};

function summaryOf(r: CommitPreviewResult): string {
  const changes = r.diff?.changes ?? [];
  const n = (k: string): number => changes.filter((c) => c.change === k).length;
  return `preview: ${n('changed')} changed, ${n('created')} created, ${n('pruned')} pruned; nothing applied`;
}

export class PullRequestPreviewer {
  /** source → pull request → the head commit last previewed, so a pass previews each head once. */
  private readonly done = new Map<string, Map<number, string>>();

  constructor(private readonly opts: PreviewerOptions) {}

  /** One pass over a source's open pull requests (or only `only`); each request's failure is its own. */
  async previewSource(src: KubeObject, only?: number): Promise<PreviewOutcome[]> {
    const key = keyOf(src);
    const parsed = flowSourceSpecSchema.safeParse(src.spec);
    if (!parsed.success) throw new PreviewError('SourceInvalid', `FlowSource ${key}: invalid spec`);
    const spec = parsed.data;
    if (!spec.previews) throw new PreviewError('SourceInvalid', `FlowSource ${key}: spec.previews is not set`);
    const forge = await this.forgeOf(src, spec);
    const branch = spec.ref?.branch ?? 'main';
    const listed = readPullRequests(
      forge.type,
      forge.provider.name,
      await send(forge.provider.name, listPullRequestsRequest(forge.type, forge.provider, branch), forge.connection),
      branch,
    );
    const seen = this.done.get(key) ?? new Map<number, string>();
    this.done.set(key, seen);
    const out: PreviewOutcome[] = [];
    for (const pr of listed) {
      if (only !== undefined && pr.number !== only) continue;
      if (seen.get(pr.number) === pr.headSha) continue;
      try {
        const outcome = await this.previewOne(src, spec, forge, pr);
        seen.set(pr.number, pr.headSha);
        out.push(outcome);
      } catch (e) {
        const message = e instanceof Error ? e.message : String(e);
        this.opts.log.warn({ source: key, pr: pr.number, err: message }, 'pull-request preview failed; tried again');
        out.push({ pr: pr.number, sha: pr.headSha, state: 'error', description: message });
        // The comment's id stays remembered through a failed pass.
        const prior = await this.held(src, pr);
        const commentId = prior === 'unreadable' ? undefined : prior?.commentId;
        await this.keep(src, {
          ...this.stub(src, pr),
          state: 'error',
          description: message,
          ...(commentId !== undefined ? { commentId } : {}),
        });
      }
    }
    // Closed requests are forgotten, here and in the web view's store.
    const open = new Set(listed.map((p) => p.number));
    for (const n of seen.keys()) if (!open.has(n)) seen.delete(n);
    await forgetClosed(this.opts.kube, src, open).catch((err: unknown) =>
      this.opts.log.debug({ source: key, err }, 'forgetting closed previews failed; tried again next pass'),
    );
    return out;
  }

  private stub(src: KubeObject, pr: PullRequest): StoredPreview {
    return {
      source: { namespace: src.metadata.namespace ?? 'default', name: src.metadata.name ?? '' },
      pr: pr.number,
      headRef: pr.headRef,
      sha: pr.headSha,
      at: new Date().toISOString(),
      state: 'pending',
      description: '',
      errors: [],
      summary: [],
      diff: '',
    };
  }

  /** The web view's copy; a failed write is logged, never the preview's failure. */
  private async keep(src: KubeObject, p: StoredPreview): Promise<void> {
    await storePreview(this.opts.kube, src, p).catch((err: unknown) =>
      this.opts.log.warn({ source: keyOf(src), pr: p.pr, err }, 'storing the preview for the web view failed'),
    );
  }

  private async forgeOf(src: KubeObject, spec: FlowSourceSpec): Promise<Forge> {
    const namespace = src.metadata.namespace ?? 'default';
    const name = spec.previews?.providerRef.name ?? '';
    const obj = await this.opts.kube.get({ apiVersion: FLOW_API_VERSION, kind: PROVIDER_KIND, namespace, name });
    if (!obj)
      throw new PreviewError('ProviderNotFound', `spec.previews.providerRef: Provider ${namespace}/${name} not found`);
    const { provider, connection } = await resolveProvider(this.opts.kube, obj);
    const type = provider.spec.type;
    if (!FORGE_TYPES.has(type))
      throw new PreviewError(
        'NotAForge',
        `spec.previews.providerRef: Provider ${namespace}/${name} is of type ${type}; ` +
          'expected github, gitlab, gitea or bitbucket',
      );
    return { type: type as ForgeType, provider, connection };
  }

  /**
   * Our comment, page by page (a busy request has more than one page), up to MAX_PAGES: the one
   * whose id the store remembers. Anyone can post a comment that starts with the marker, and such
   * a comment must not be taken for ours (edited, or read as "already previewed"), so with no id
   * remembered none is ours and a new one is written. Only when the store cannot be read at all
   * (`'first'`: a role without ConfigMap rights) is the first comment with the marker taken.
   */
  private async findComment(
    forge: Forge,
    pr: number,
    marker: string,
    known: number | undefined | 'first',
  ): Promise<ForgeComment | undefined> {
    if (known === undefined) return undefined;
    const { provider, connection, type } = forge;
    for (let page = 1; page <= MAX_PAGES; page++) {
      const req = listCommentsRequest(type, provider, pr, page);
      const comments = readComments(type, provider.name, await send(provider.name, req, connection));
      const found = comments.find((c) => c.body.startsWith(marker) && (known === 'first' || c.id === known));
      if (found || type === 'gitea' || comments.length < PAGE) return found;
    }
    return undefined;
  }

  /** The web view's copy of the request's preview; 'unreadable' when the store cannot be read. */
  private async held(src: KubeObject, pr: PullRequest): Promise<StoredPreview | undefined | 'unreadable'> {
    const list = await listPreviews(this.opts.kube, src.metadata.namespace ?? 'default', src.metadata.name ?? '').catch(
      () => 'unreadable' as const,
    );
    return list === 'unreadable' ? list : list.find((x) => x.pr === pr.number);
  }

  private async previewOne(
    src: KubeObject,
    spec: FlowSourceSpec,
    forge: Forge,
    pr: PullRequest,
  ): Promise<PreviewOutcome> {
    const key = keyOf(src);
    const { provider, connection, type } = forge;
    const held = await this.held(src, pr);
    const copy = held === 'unreadable' ? undefined : held;
    const ours = await this.findComment(
      forge,
      pr.number,
      markerOf(key),
      held === 'unreadable' ? 'first' : copy?.commentId,
    );
    // Bitbucket lists a head by its first 12 digits; the others by all 40. A head the comment
    // already covers is previewed again only when the web view's copy is missing or older (the
    // store was lost, or the comment came from a FlowOps that kept none), so its page is not empty;
    // a store it cannot read (a narrowed role) is no reason to comment again on every pass.
    const finished = copy?.sha.startsWith(pr.headSha) === true && copy.state !== 'pending' && copy.state !== 'error';
    if (ours && previewedCommit(ours.body)?.startsWith(pr.headSha) && (held === 'unreadable' || finished))
      return {
        pr: pr.number,
        sha: pr.headSha,
        state: 'unchanged',
        commentId: ours.id,
        description: 'already previewed',
      };
    const context = `flowops/preview/${key}`;
    const gitDir = join(this.opts.dataDir, 'previews', ...key.split('/'));
    const credentials = await sourceCredentials(this.opts.kube, src.metadata.namespace ?? 'default', spec);
    // The schema allows previews only beside url; an OCI source has no pull requests.
    if (!spec.url) return { pr: pr.number, sha: pr.headSha, state: 'unchanged', description: 'not a Git source' };
    const url = pr.headRepo ? forkUrl(spec.url, pr.headRepo) : spec.url;
    const sha = await fetchHead({ gitDir, url, ref: pr.headRef, sha: pr.headSha, credentials });
    const status = async (state: CommitStateName, description: string): Promise<void> => {
      const req = commitStatusRequest(provider, {
        sha,
        state,
        description,
        context,
        ...(this.opts.viewUrl ? { targetUrl: `${this.opts.viewUrl}/ui/sources/${key}` } : {}),
      });
      if (req) await send(provider.name, req, connection);
    };
    await status('pending', 'previewing: validating and diffing against live');
    await this.keep(src, {
      ...this.stub(src, pr),
      sha,
      description: 'previewing',
      ...(ours ? { commentId: ours.id } : {}),
    });
    const result = await previewCommit({ kube: this.opts.kube, source: src, spec, gitDir, sha });
    const body = previewComment({
      source: key,
      sha,
      validation: { errors: result.errors, warnings: result.warnings },
      ...(result.diff ? { diff: result.diff } : {}),
      ...(result.dryRunError !== undefined ? { dryRunError: result.dryRunError } : {}),
      ...(result.rendered ? { rendered: result.rendered } : {}),
      limit: COMMENT_LIMIT[type],
      ...(this.opts.viewUrl ? { link: `${this.opts.viewUrl}/ui/sources/${key}` } : {}),
    });
    const written = ours
      ? await send(provider.name, updateCommentRequest(type, provider, pr.number, ours.id, body), connection)
      : await send(provider.name, createCommentRequest(type, provider, pr.number, body), connection);
    const commentId = readComment(type, provider.name, written).id;
    const problem = firstProblem(result);
    const state: CommitStateName = problem ? 'failure' : 'success';
    const description = problem ?? summaryOf(result);
    await status(state, description);
    const changes = result.errors.length ? [] : (result.diff?.changes ?? []);
    await this.keep(src, {
      ...this.stub(src, pr),
      sha,
      state,
      description,
      errors: [
        ...result.errors.map((e) => `${e.file}:${e.line}:${e.column}: ${e.field}: ${e.message}`),
        ...(result.dryRunError !== undefined ? [result.dryRunError] : []),
      ],
      commentId,
      summary: summaryEntries(changes, result.rendered),
      diff: changes.map((c) => c.diff).join(''),
      ...(result.rendered ? { rendered: result.rendered } : {}),
    });
    this.opts.log.info({ source: key, pr: pr.number, sha, state }, 'pull request previewed');
    return { pr: pr.number, sha, state, commentId, description };
  }
}
