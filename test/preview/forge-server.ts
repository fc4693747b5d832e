import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { OpenApiDocument } from '../notify/openapi-receiver.js';

/**
 * A forge in the test (node:http) that knows only what the forge publishes. Each request FlowOps
 * sends must be an operation of the forge's API description: path template and method, every query
 * parameter one the operation declares, the body valid against its schema read closed (a property
 * the schema does not list fails). It answers as the forge does: state kept per pull request, and
 * every answer checked against the operation's documented response schema (closed, the fields it
 * gives must be documented ones of the documented types). A request that is not valid is answered
 * 404/400/422 and kept in `errors`, which the tests assert empty.
 */

export type ForgeKind = 'github' | 'gitlab' | 'gitea' | 'bitbucket';

export interface ForgeStatus {
  sha: string;
  state: string;
  description?: string;
  context: string;
}

export interface FakeForge {
  url: string;
  errors: string[];
  /** `METHOD template` of each valid request, in order. */
  calls: string[];
  /** Opens (or moves the head of) pull request `n` into `base`. */
  /** Bitbucket: `fork` names the repository (workspace/repo) and branch that hold the head. */
  openPull(n: number, sha: string, base?: string, fork?: { repository: string; branch: string }): void;
  comments(n: number): Array<{ id: number; body: string }>;
  addComments(n: number, bodies: string[]): void;
  statuses(sha: string): ForgeStatus[];
  stop(): Promise<void>;
}

type Json = Record<string, unknown>;

interface Operation {
  operationId?: string;
  parameters?: unknown[];
  requestBody?: { content?: Record<string, { schema?: unknown }> };
  responses?: Record<string, unknown>;
}

/** What a local `$ref` (`#/components/…`) names, not expanded further. */
const lookup = (doc: OpenApiDocument, ref: string): unknown =>
  ref
    .replace(/^#\//, '')
    .split('/')
    .reduce<unknown>((at, key) => (at && typeof at === 'object' ? (at as Json)[key] : undefined), doc);

/** `$ref`s replaced by what they name; a cycle becomes `{}` (anything), which only loosens the check. */
function deref(doc: OpenApiDocument, node: unknown, seen: ReadonlySet<string> = new Set()): unknown {
  if (Array.isArray(node)) return node.map((n) => deref(doc, n, seen));
  if (!node || typeof node !== 'object') return node;
  const ref = (node as { $ref?: unknown }).$ref;
  if (typeof ref === 'string') {
    if (seen.has(ref)) return {};
    return deref(doc, lookup(doc, ref), new Set([...seen, ref]));
  }
  return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, deref(doc, v, seen)]));
}

/** Closed objects; `partial` also drops `required`, for checking the subset of fields a fake answers with. */
function closed(schema: unknown, partial: boolean): unknown {
  if (Array.isArray(schema)) return schema.map((s) => closed(s, partial));
  if (!schema || typeof schema !== 'object') return schema;
  const out: Json = {};
  for (const [k, v] of Object.entries(schema)) {
    if (partial && k === 'required') continue;
    out[k] =
      k === 'properties' && v && typeof v === 'object'
        ? Object.fromEntries(Object.entries(v).map(([p, s]) => [p, closed(s, partial)]))
        : closed(v, partial);
  }
  // allOf parts each list only some properties: closing them would refuse the others.
  if (out.properties && out.additionalProperties === undefined && !out.allOf) out.additionalProperties = false;
  return out;
}

interface Route {
  template: string;
  regex: RegExp;
  names: string[];
  literal: number;
}

function routesOf(doc: OpenApiDocument): Route[] {
  return Object.keys(doc.paths)
    .map((template) => {
      const names: string[] = [];
      const source = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{([^}]+)\}/g, (_m, name: string) => {
        names.push(name);
        return '([^/]+)';
      });
      return { template, regex: new RegExp(`^${source}$`), names, literal: template.replace(/\{[^}]+\}/g, '').length };
    })
    .sort((a, b) => b.literal - a.literal);
}

interface Call {
  kind: string;
  params: Record<string, string>;
  query: URLSearchParams;
  body: Json;
}
type Reply = { status: number; body: unknown };

const AUTH: Record<ForgeKind, (token: string) => [string, string]> = {
  github: (t) => ['authorization', `Bearer ${t}`],
  gitlab: (t) => ['private-token', t],
  gitea: (t) => ['authorization', `token ${t}`],
  bitbucket: (t) => ['authorization', `Bearer ${t}`],
};

/**
 * Query parameters every Bitbucket list takes though no operation declares them: its generic
 * pagination, https://developer.atlassian.com/cloud/bitbucket/rest/intro/#pagination.
 */
const GENERIC_QUERY: Record<ForgeKind, readonly string[]> = {
  github: [],
  gitlab: [],
  gitea: [],
  bitbucket: ['page', 'pagelen'],
};

export async function startFakeForge(
  kind: ForgeKind,
  doc: OpenApiDocument,
  opts: { token: string; stripPrefix?: string },
): Promise<FakeForge> {
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats.default(ajv);
  const routes = routesOf(doc);
  const validators = new Map<string, ValidateFunction>();
  const validator = (id: string, schema: () => unknown, partial: boolean): ValidateFunction => {
    let v = validators.get(id);
    if (!v) {
      v = ajv.compile(closed(deref(doc, schema()), partial) as object);
      validators.set(id, v);
    }
    return v;
  };
  const pulls = new Map<number, { sha: string; base: string; fork?: { repository: string; branch: string } }>();
  const comments = new Map<number, Array<{ id: number; body: string }>>();
  const statuses: ForgeStatus[] = [];
  let nextId = 1000;
  const forge: FakeForge = {
    url: '',
    errors: [],
    calls: [],
    openPull: (n, sha, base = 'main', fork) => void pulls.set(n, { sha, base, ...(fork ? { fork } : {}) }),
    comments: (n) => comments.get(n) ?? [],
    addComments: () => undefined,
    statuses: (sha) => statuses.filter((s) => s.sha === sha),
    stop: async () => {},
  };
  const noteOf = (c: { id: number; body: string }): Json =>
    kind === 'gitlab'
      ? { id: c.id, body: c.body, system: false, noteable_type: 'MergeRequest' }
      : kind === 'bitbucket'
        ? { type: 'pullrequest_comment', id: c.id, content: { raw: c.body, markup: 'markdown' } }
        : { id: c.id, body: c.body };
  const pr = (n: string | undefined): number => Number(n);
  const commentsOf = (n: number): Array<{ id: number; body: string }> => {
    const list = comments.get(n) ?? [];
    comments.set(n, list);
    return list;
  };

  /** GitHub and GitLab page lists (per_page, page from 1, default 30 and 20); Gitea's comments are not paged. */
  const paged = <T>(all: T[], q: URLSearchParams): T[] => {
    if (kind === 'gitea') return all;
    const defaults: Record<ForgeKind, number> = { github: 30, gitlab: 20, gitea: 0, bitbucket: 10 };
    const size = Number(q.get(kind === 'bitbucket' ? 'pagelen' : 'per_page') ?? defaults[kind]);
    const page = Number(q.get('page') ?? 1);
    return all.slice((page - 1) * size, page * size);
  };
  /** Someone else's comments, as a busy pull request has. */
  forge.addComments = (n, bodies) => {
    for (const body of bodies) commentsOf(n).push({ id: nextId++, body });
  };

  /** What the forge answers, per operation (keyed `method template`). */
  const handlers: Record<string, (c: Call) => Reply> = {};
  const bitbucketPull = (
    n: number,
    p: { sha: string; base: string; fork?: { repository: string; branch: string } },
  ): Json => {
    const repository = { type: 'repository', full_name: 'acme/flows' };
    const head = p.fork ? { type: 'repository', full_name: p.fork.repository } : repository;
    return {
      type: 'pullrequest',
      id: n,
      state: 'OPEN',
      // Bitbucket names a commit by its first 12 digits here.
      source: {
        branch: { name: p.fork?.branch ?? `pr-${n}` },
        commit: { hash: p.sha.slice(0, 12) },
        repository: head,
      },
      destination: { branch: { name: p.base }, commit: { hash: 'f'.repeat(12) }, repository },
    };
  };
  const listPulls = (base: string | null): Reply => ({
    status: 200,
    body: [...pulls]
      .filter(([, p]) => base === null || p.base === base)
      .map(([n, p]) =>
        kind === 'gitlab'
          ? { id: 9000 + n, iid: n, state: 'opened', target_branch: p.base, source_branch: `mr-${n}`, sha: p.sha }
          : { number: n, state: 'open', head: { sha: p.sha, ref: `pr-${n}` }, base: { ref: p.base } },
      ),
  });
  const textOf = (c: Call): string =>
    kind === 'bitbucket' ? String((c.body.content as Json | undefined)?.raw) : String(c.body.body);
  const addComment = (n: number, c: Call): Reply => {
    const made = { id: nextId++, body: textOf(c) };
    commentsOf(n).push(made);
    return { status: 201, body: noteOf(made) };
  };
  const editComment = (id: number, c: Call, n?: number): Reply => {
    const all = n === undefined ? [...comments.values()].flat() : commentsOf(n);
    const found = all.find((x) => x.id === id);
    if (!found) return { status: 404, body: { message: 'Not Found' } };
    found.body = textOf(c);
    return { status: 200, body: noteOf(found) };
  };
  const addStatus = (c: Call): Reply => {
    statuses.push({
      sha: c.params.sha ?? c.params.commit ?? '',
      state: String(c.body.state),
      context: String(c.body.context ?? c.body.name ?? ''),
      ...(typeof c.body.description === 'string' ? { description: c.body.description } : {}),
    });
    const id = nextId++;
    const context = c.body.context ?? '';
    // Gitea answers the state as `status`; GitHub as `state`.
    const answer = kind === 'gitea' ? { id, status: c.body.state, context } : { id, state: c.body.state, context };
    if (kind === 'bitbucket')
      return { status: 201, body: { type: 'build', key: c.body.key, state: c.body.state, url: c.body.url } };
    return { status: 201, body: kind === 'gitlab' ? { id } : answer };
  };
  if (kind === 'bitbucket') {
    const repo = '/repositories/{workspace}/{repo_slug}';
    const page = (values: Json[], q: URLSearchParams): Json => ({
      values: paged(values, q),
      page: Number(q.get('page') ?? 1),
      pagelen: Number(q.get('pagelen') ?? 10),
      size: values.length,
    });
    handlers[`get ${repo}/pullrequests`] = (c) => ({
      status: 200,
      body: page(
        // Every pull request of the fake is open.
        c.query.get('state') === 'OPEN' ? [...pulls].map(([n, p]) => bitbucketPull(n, p)) : [],
        c.query,
      ),
    });
    handlers[`get ${repo}/pullrequests/{pull_request_id}/comments`] = (c) => ({
      status: 200,
      body: page(commentsOf(pr(c.params.pull_request_id)).map(noteOf), c.query),
    });
    handlers[`post ${repo}/pullrequests/{pull_request_id}/comments`] = (c) =>
      addComment(pr(c.params.pull_request_id), c);
    handlers[`put ${repo}/pullrequests/{pull_request_id}/comments/{comment_id}`] = (c) =>
      editComment(Number(c.params.comment_id), c, pr(c.params.pull_request_id));
    handlers[`post ${repo}/commit/{commit}/statuses/build`] = addStatus;
  } else if (kind === 'gitlab') {
    handlers['get /api/v4/projects/{id}/merge_requests'] = (c) => listPulls(c.query.get('target_branch'));
    handlers['get /api/v4/projects/{id}/merge_requests/{merge_request_iid}/notes'] = (c) => ({
      status: 200,
      body: paged(commentsOf(pr(c.params.merge_request_iid)), c.query).map(noteOf),
    });
    handlers['post /api/v4/projects/{id}/merge_requests/{merge_request_iid}/notes'] = (c) =>
      addComment(pr(c.params.merge_request_iid), c);
    handlers['put /api/v4/projects/{id}/merge_requests/{merge_request_iid}/notes/{note_id}'] = (c) =>
      editComment(Number(c.params.note_id), c, pr(c.params.merge_request_iid));
    handlers['post /api/v4/projects/{id}/statuses/{sha}'] = addStatus;
  } else {
    const index = kind === 'github' ? 'issue_number' : 'index';
    const commentId = kind === 'github' ? 'comment_id' : 'id';
    handlers['get /repos/{owner}/{repo}/pulls'] = (c) =>
      listPulls(kind === 'github' ? c.query.get('base') : c.query.get('base_branch'));
    handlers[`get /repos/{owner}/{repo}/issues/{${index}}/comments`] = (c) => ({
      status: 200,
      body: paged(commentsOf(pr(c.params[index])), c.query).map(noteOf),
    });
    handlers[`post /repos/{owner}/{repo}/issues/{${index}}/comments`] = (c) => addComment(pr(c.params[index]), c);
    handlers[`patch /repos/{owner}/{repo}/issues/comments/{${commentId}}`] = (c) =>
      editComment(Number(c.params[commentId]), c);
    handlers['post /repos/{owner}/{repo}/statuses/{sha}'] = addStatus;
  }

  const [authHeader, authValue] = AUTH[kind](opts.token);
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const answer = (status: number, body: unknown): void =>
        void res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      const method = (req.method ?? 'GET').toLowerCase();
      const url = new URL(req.url ?? '/', 'http://forge');
      const path = url.pathname.replace(opts.stripPrefix ?? '', '');
      const what = `${method.toUpperCase()} ${path}`;
      const route = routes.find((r) => r.regex.test(path) && doc.paths[r.template]?.[method]);
      if (!route) {
        forge.errors.push(`${what}: no such operation in the API description`);
        return answer(404, { message: 'Not Found' });
      }
      const op = doc.paths[route.template]?.[method] as Operation;
      const id = `${method} ${route.template}`;
      const declared = new Set(
        [...(op.parameters ?? []), ...((doc.paths[route.template]?.parameters as unknown[] | undefined) ?? [])]
          .map((p) => deref(doc, p) as { name?: string; in?: string })
          .filter((p) => p.in === 'query')
          .map((p) => p.name),
      );
      for (const q of url.searchParams.keys())
        if (!declared.has(q) && !GENERIC_QUERY[kind].includes(q))
          forge.errors.push(`${id}: query parameter ${q} is not one the operation declares`);
      if (req.headers[authHeader] !== authValue) {
        forge.errors.push(`${id}: no or wrong ${authHeader} header`);
        return answer(401, { message: 'Bad credentials' });
      }
      const m = route.regex.exec(path);
      const params = Object.fromEntries(route.names.map((n, i) => [n, decodeURIComponent(m?.[i + 1] ?? '')]));
      let body: Json = {};
      const schema = (deref(doc, op.requestBody) as Operation['requestBody'])?.content?.['application/json']?.schema;
      if (chunks.length || schema) {
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null') as Json;
        } catch {
          forge.errors.push(`${id}: body is not JSON`);
          return answer(400, { message: 'Problems parsing JSON' });
        }
        const validate = schema ? validator(`req ${id}`, () => schema, false) : undefined;
        if (!validate) forge.errors.push(`${id}: sent a body to an operation that takes none`);
        else if (!validate(body)) {
          forge.errors.push(`${id}: ${ajv.errorsText(validate.errors)}`);
          return answer(422, { message: 'Validation Failed' });
        }
      }
      const handler = handlers[id];
      if (!handler) {
        forge.errors.push(`${id}: a valid operation, but not one a preview should call`);
        return answer(404, { message: 'Not Found' });
      }
      forge.calls.push(id);
      const reply = handler({ kind: id, params, query: url.searchParams, body });
      // The response object only (its schema is expanded once, when its validator is made).
      const response = op.responses?.[String(reply.status)] as { $ref?: string } | undefined;
      const described = (response?.$ref ? lookup(doc, response.$ref) : response) as
        | { content?: Record<string, { schema?: unknown }> }
        | undefined;
      const documented = described?.content?.['application/json']?.schema;
      if (reply.status < 300) {
        if (!documented) forge.errors.push(`${id}: answer ${reply.status} is not documented`);
        else {
          const check = validator(`res ${id} ${reply.status}`, () => documented, true);
          if (!check(reply.body)) forge.errors.push(`${id}: the fake's own answer: ${ajv.errorsText(check.errors)}`);
        }
      }
      answer(reply.status, reply.body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  forge.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  forge.stop = async () => {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  };
  return forge;
}
