// The three forge REST calls a preview needs, as pure request builders and answer readers:
// list the open pull (merge) requests into a branch, list a request's comments, create or edit one.
// GitHub: https://docs.github.com/rest/pulls and /rest/issues/comments; GitLab: the merge_requests
// and notes APIs; Gitea/Forgejo: /repos/{owner}/{repo}/pulls and issue comments. Each forge's
// published description checks these in test/preview/.

import { z } from 'zod';
import type { OutgoingRequest, ResolvedProvider } from '../notify/index.js';
import { bitbucketApiRoot, repoOf } from '../notify/providers/forge.js';
import {
  BITBUCKET_PAGE,
  bitbucketComment,
  bitbucketCommentBody,
  bitbucketComments,
  bitbucketPulls,
  bitbucketPullsOf,
} from './bitbucket-api.js';
import { PreviewError } from './errors.js';

export type ForgeType = 'github' | 'gitlab' | 'gitea' | 'bitbucket';

export const FORGE_TYPES: ReadonlySet<string> = new Set<ForgeType>(['github', 'gitlab', 'gitea', 'bitbucket']);

export interface PullRequest {
  number: number;
  headSha: string;
  /** The ref the forge keeps the request's head under in the base repository (a fork's too). */
  headRef: string;
  /** Bitbucket: the fork (workspace/repo) that holds headRef, when it is not the base repository. */
  headRepo?: string;
}

export interface ForgeComment {
  id: number;
  body: string;
}

/**
 * The longest comment each forge takes (GitHub: 65,536 characters; GitLab: 1,000,000; Gitea: its
 * text column). Bitbucket documents none; 32,768 is well inside what it is known to accept.
 */
export const COMMENT_LIMIT: Record<ForgeType, number> = {
  github: 65_536,
  gitlab: 1_000_000,
  gitea: 65_536,
  bitbucket: 32_768,
};

/** Items per page of a list (the most GitHub and GitLab give). */
export const PAGE = 100;

interface Api {
  /** API root, no trailing slash. */
  root: string;
  /** The repository's path segment under the API root. */
  repo: string;
  headers: Record<string, string>;
}

const segments = (path: string): string => path.split('/').map(encodeURIComponent).join('/');

function apiOf(type: ForgeType, p: ResolvedProvider): Api {
  const { origin, path } = repoOf(p);
  const token = p.token;
  if (type !== 'gitlab' && path.split('/').length !== 2)
    throw new PreviewError(
      'InvalidAddress',
      `provider ${p.name}: spec.address: a ${type} repository is https://host/owner/repo, got the path ${path}`,
    );
  if (type === 'github') {
    const root = origin === 'https://github.com' ? 'https://api.github.com' : `${origin}/api/v3`;
    return {
      root,
      repo: `repos/${segments(path)}`,
      headers: { accept: 'application/vnd.github+json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    };
  }
  if (type === 'bitbucket') {
    const basic = token?.includes(':') ? `Basic ${Buffer.from(token).toString('base64')}` : undefined;
    return {
      root: bitbucketApiRoot(origin),
      repo: `repositories/${segments(path)}`,
      headers: token ? { authorization: basic ?? `Bearer ${token}` } : {},
    };
  }
  if (type === 'gitlab')
    return {
      root: `${origin}/api/v4`,
      repo: `projects/${encodeURIComponent(path)}`,
      headers: token ? { 'private-token': token } : {},
    };
  return {
    root: `${origin}/api/v1`,
    repo: `repos/${segments(path)}`,
    headers: token ? { authorization: `token ${token}` } : {},
  };
}

const get = (api: Api, path: string, query: Record<string, string>): OutgoingRequest => ({
  method: 'GET',
  url: `${api.root}/${api.repo}/${path}?${new URLSearchParams(query).toString()}`,
  headers: api.headers,
  body: '',
});
const withBody = (api: Api, method: 'POST' | 'PATCH' | 'PUT', path: string, body: unknown): OutgoingRequest => ({
  method,
  url: `${api.root}/${api.repo}/${path}`,
  headers: api.headers,
  body: JSON.stringify(body),
});

export function listPullRequestsRequest(type: ForgeType, p: ResolvedProvider, branch: string): OutgoingRequest {
  const api = apiOf(type, p);
  if (type === 'github') return get(api, 'pulls', { state: 'open', base: branch, per_page: String(PAGE) });
  if (type === 'gitlab')
    return get(api, 'merge_requests', { state: 'opened', target_branch: branch, per_page: String(PAGE) });
  // Bitbucket's list takes no branch: readPullRequests keeps those into `branch`.
  if (type === 'bitbucket') return get(api, 'pullrequests', { state: 'OPEN', pagelen: '50' });
  return get(api, 'pulls', { state: 'open', base_branch: branch, limit: '50' });
}

/**
 * One page (from 1) of a request's comments, oldest first. Gitea's list is not paged: it answers
 * every comment at once, so only its page 1 exists.
 */
export function listCommentsRequest(type: ForgeType, p: ResolvedProvider, pr: number, page = 1): OutgoingRequest {
  const api = apiOf(type, p);
  const paging = { per_page: String(PAGE), page: String(page) };
  if (type === 'gitlab') return get(api, `merge_requests/${pr}/notes`, { ...paging, sort: 'asc' });
  if (type === 'bitbucket')
    return get(api, `pullrequests/${pr}/comments`, { pagelen: String(BITBUCKET_PAGE), page: String(page) });
  if (type === 'github') return get(api, `issues/${pr}/comments`, paging);
  return get(api, `issues/${pr}/comments`, {});
}

export function createCommentRequest(type: ForgeType, p: ResolvedProvider, pr: number, body: string): OutgoingRequest {
  const api = apiOf(type, p);
  if (type === 'gitlab') return withBody(api, 'POST', `merge_requests/${pr}/notes`, { body });
  if (type === 'bitbucket') return withBody(api, 'POST', `pullrequests/${pr}/comments`, bitbucketCommentBody(body));
  return withBody(api, 'POST', `issues/${pr}/comments`, { body });
}

export function updateCommentRequest(
  type: ForgeType,
  p: ResolvedProvider,
  pr: number,
  id: number,
  body: string,
): OutgoingRequest {
  const api = apiOf(type, p);
  if (type === 'gitlab') return withBody(api, 'PUT', `merge_requests/${pr}/notes/${id}`, { body });
  if (type === 'bitbucket')
    return withBody(api, 'PUT', `pullrequests/${pr}/comments/${id}`, bitbucketCommentBody(body));
  return withBody(api, 'PATCH', `issues/comments/${id}`, { body });
}

const githubLike = z.array(
  z.object({ number: z.number().int(), head: z.object({ sha: z.string().regex(/^[0-9a-f]{40}$/) }) }),
);
const gitlabList = z.array(z.object({ iid: z.number().int(), sha: z.string().regex(/^[0-9a-f]{40}$/) }));
const commentList = z.array(z.object({ id: z.number().int(), body: z.string().nullable().optional() }));

function parsed<T>(schema: z.ZodType<T>, text: string, what: string, provider: string): T {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new PreviewError('BadForgeAnswer', `provider ${provider}: ${what}: the answer is not JSON`);
  }
  const r = schema.safeParse(json);
  if (!r.success) {
    const issue = r.error.issues[0];
    throw new PreviewError(
      'BadForgeAnswer',
      `provider ${provider}: ${what}: unexpected answer at ${issue?.path.join('.') ?? ''}: ${issue?.message ?? ''}`,
    );
  }
  return r.data;
}

export function readPullRequests(type: ForgeType, provider: string, text: string, branch: string): PullRequest[] {
  if (type === 'bitbucket')
    return bitbucketPullsOf(parsed(bitbucketPulls, text, 'pull requests', provider))
      .filter((p) => p.base === branch)
      .map(({ base: _base, ...pr }) => pr);
  if (type === 'gitlab')
    return parsed(gitlabList, text, 'merge requests', provider).map((m) => ({
      number: m.iid,
      headSha: m.sha,
      headRef: `refs/merge-requests/${m.iid}/head`,
    }));
  return parsed(githubLike, text, 'pull requests', provider).map((pr) => ({
    number: pr.number,
    headSha: pr.head.sha,
    headRef: `refs/pull/${pr.number}/head`,
  }));
}

export function readComments(type: ForgeType, provider: string, text: string): ForgeComment[] {
  if (type === 'bitbucket')
    return parsed(bitbucketComments, text, 'comments', provider).values.map((c) => ({
      id: c.id,
      body: c.content?.raw ?? '',
    }));
  return parsed(commentList, text, 'comments', provider).map((c) => ({ id: c.id, body: c.body ?? '' }));
}

export function readComment(type: ForgeType, provider: string, text: string): ForgeComment {
  if (type === 'bitbucket') {
    const c = parsed(bitbucketComment, text, 'comment', provider);
    return { id: c.id, body: c.content?.raw ?? '' };
  }
  const [c] = readComments(type, provider, `[${text}]`);
  if (!c) throw new PreviewError('BadForgeAnswer', `provider ${provider}: comment: empty answer`);
  return c;
}
