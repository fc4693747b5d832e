import type { CommitStateName } from '../commit-state.js';
import { NotifyError } from '../errors.js';
import type { OutgoingRequest } from '../http-send.js';
import type { ResolvedProvider } from '../message.js';

/** One commit's state as the forge is told it. */
export interface CommitStatusUpdate {
  sha: string;
  state: CommitStateName;
  description: string;
  /** Identifies FlowOps' status among the commit's others (CI, other sources): `flowops/<namespace>/<source>`. */
  context: string;
  targetUrl?: string;
}

export interface RepoAddress {
  origin: string;
  /** owner/repo (GitLab: group/subgroup/project). */
  path: string;
}

/** `https://host/owner/repo(.git)` → origin and repository path; anything else is a clear error. */
export function repoOf(p: ResolvedProvider): RepoAddress {
  let u: URL;
  try {
    u = new URL(p.address);
  } catch {
    throw new NotifyError(
      'InvalidProvider',
      `provider ${p.name}: spec.address: expected the repository URL https://host/owner/repo`,
    );
  }
  const path = u.pathname.replace(/^\/+|\/+$/g, '').replace(/\.git$/, '');
  if (path.split('/').length < 2)
    throw new NotifyError(
      'InvalidProvider',
      `provider ${p.name}: spec.address: expected the repository URL https://host/owner/repo, got no owner/repo path`,
    );
  return { origin: u.origin, path };
}

const post = (url: string, body: unknown, headers: Record<string, string>): OutgoingRequest => ({
  method: 'POST',
  url,
  headers,
  body: JSON.stringify(body),
});
const auth = (p: ResolvedProvider, scheme: string): Record<string, string> =>
  p.token ? { authorization: `${scheme} ${p.token}` } : {};
const repoPath = (path: string): string => path.split('/').map(encodeURIComponent).join('/');

/** GitHub (Enterprise: https://host/api/v3): POST /repos/{owner}/{repo}/statuses/{sha}; description ≤ 140. */
export function githubStatusRequest(p: ResolvedProvider, u: CommitStatusUpdate): OutgoingRequest {
  const { origin, path } = repoOf(p);
  const api = origin === 'https://github.com' ? 'https://api.github.com' : `${origin}/api/v3`;
  const body = {
    state: u.state,
    context: u.context,
    description: u.description.slice(0, 140),
    ...(u.targetUrl ? { target_url: u.targetUrl } : {}),
  };
  return post(`${api}/repos/${repoPath(path)}/statuses/${u.sha}`, body, {
    accept: 'application/vnd.github+json',
    ...auth(p, 'Bearer'),
  });
}

const GITLAB_STATE: Record<CommitStateName, string> = {
  pending: 'running',
  success: 'success',
  failure: 'failed',
  error: 'failed',
};

/** GitLab: POST /api/v4/projects/{url-encoded path}/statuses/{sha}, `name` as the context; token in PRIVATE-TOKEN. */
export function gitlabStatusRequest(p: ResolvedProvider, u: CommitStatusUpdate): OutgoingRequest {
  const { origin, path } = repoOf(p);
  const body = {
    state: GITLAB_STATE[u.state],
    name: u.context,
    description: u.description.slice(0, 255),
    ...(u.targetUrl ? { target_url: u.targetUrl } : {}),
  };
  return post(
    `${origin}/api/v4/projects/${encodeURIComponent(path)}/statuses/${u.sha}`,
    body,
    p.token ? { 'private-token': p.token } : {},
  );
}

/** Gitea and Forgejo: POST /api/v1/repos/{owner}/{repo}/statuses/{sha}; their states are GitHub's. */
export function giteaStatusRequest(p: ResolvedProvider, u: CommitStatusUpdate): OutgoingRequest {
  const { origin, path } = repoOf(p);
  const body = {
    state: u.state,
    context: u.context,
    description: u.description.slice(0, 255),
    ...(u.targetUrl ? { target_url: u.targetUrl } : {}),
  };
  return post(`${origin}/api/v1/repos/${repoPath(path)}/statuses/${u.sha}`, body, auth(p, 'token'));
}

const BITBUCKET_STATE: Record<CommitStateName, string> = {
  pending: 'INPROGRESS',
  success: 'SUCCESSFUL',
  failure: 'FAILED',
  error: 'FAILED',
};

/** Bitbucket Cloud's API has a host of its own; any other origin serves it under /2.0 (a proxy, a test). */
export const bitbucketApiRoot = (origin: string): string =>
  origin === 'https://bitbucket.org' ? 'https://api.bitbucket.org/2.0' : `${origin}/2.0`;

/**
 * Bitbucket Cloud: POST /2.0/repositories/{workspace}/{repo}/commit/{sha}/statuses/build. `key`
 * identifies the status (≤ 40 chars, so a hash of the context when longer); `url` is required, and
 * so is `type` (the schema's base object; a build status is of type `build`). The Secret's token
 * is `username:app-password` (basic auth) or an access token (bearer).
 */
export function bitbucketStatusRequest(p: ResolvedProvider, u: CommitStatusUpdate): OutgoingRequest {
  const { origin, path } = repoOf(p);
  const key = u.context.length <= 40 ? u.context : `flowops-${simpleHash(u.context)}`;
  const body = {
    type: 'build',
    key,
    state: BITBUCKET_STATE[u.state],
    name: u.context,
    description: u.description.slice(0, 255),
    url: u.targetUrl ?? p.address,
  };
  const headers: Record<string, string> = !p.token
    ? {}
    : p.token.includes(':')
      ? { authorization: `Basic ${Buffer.from(p.token).toString('base64')}` }
      : auth(p, 'Bearer');
  return post(
    `${bitbucketApiRoot(origin)}/repositories/${repoPath(path)}/commit/${u.sha}/statuses/build`,
    body,
    headers,
  );
}

function simpleHash(s: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(16).padStart(8, '0');
}
