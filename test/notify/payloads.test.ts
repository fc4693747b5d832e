import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import type { ProviderSpec } from '../../src/api/notify.js';
import type { NotifyEvent } from '../../src/notify/index.js';
import type { OutgoingRequest } from '../../src/notify/http-send.js';
import type { Message, ResolvedProvider } from '../../src/notify/message.js';
import { commitStatusRequest, messageRequest } from '../../src/notify/providers/index.js';

const SCHEMAS = join(import.meta.dirname, 'schemas');
const ajv = new Ajv({ strict: false, allErrors: true });
addFormats.default(ajv);
const schema = (file: string): ValidateFunction =>
  ajv.compile(JSON.parse(readFileSync(join(SCHEMAS, file), 'utf8')) as object);

const REVISION = `main@sha1:${'a'.repeat(40)}`;
const event = (i: number, severity: NotifyEvent['severity'] = 'error'): NotifyEvent => ({
  involved: { apiVersion: 'v1', kind: 'ConfigMap', name: `cm-${i}`, namespace: 'default' },
  severity,
  reason: 'ReconcileFailed',
  message: `Flow demo: step make-child failed (${i})`,
  revision: REVISION,
  time: '2026-12-01T21:00:00Z',
});
// 25 events: more than a message lists, so the "… and N more" line is in every payload too.
const message: Message = {
  alert: 'default/team',
  severity: 'error',
  summary: 'team-a',
  revision: REVISION,
  events: Array.from({ length: 20 }, (_, i) => event(i)),
  total: 25,
  errors: 25,
  link: 'http://127.0.0.1:7777/ui/sources/default/flows#aaaa',
};

const provider = (
  type: ProviderSpec['type'],
  address: string,
  token?: string,
  extra: Partial<ProviderSpec> = {},
): ResolvedProvider => ({
  name: type,
  namespace: 'default',
  spec: { type, ...extra },
  address,
  ...(token ? { token } : {}),
});

const send = (p: ResolvedProvider): OutgoingRequest => {
  const r = messageRequest(p, message);
  if (!r) throw new Error(`no message request for ${p.spec.type}`);
  return r;
};
const status = (p: ResolvedProvider, state: 'pending' | 'success' | 'failure' | 'error'): OutgoingRequest => {
  const r = commitStatusRequest(p, {
    sha: 'b'.repeat(40),
    state,
    description: 'x'.repeat(300),
    context: 'flowops/default/flows',
    targetUrl: 'http://127.0.0.1:7777/ui/sources/default/flows#bbbb',
  });
  if (!r) throw new Error(`no status request for ${p.spec.type}`);
  return r;
};

function expectValid(validate: ValidateFunction, body: unknown): void {
  const ok = validate(body);
  expect(ok ? [] : validate.errors).toEqual([]);
}

describe("message payloads against the vendors' documented schemas", () => {
  it('Slack: incoming webhook and chat.postMessage with a bot token', () => {
    const validate = schema('slack-message.schema.json');
    const hook = send(provider('slack', 'https://hooks.slack.com/services/T/B/X'));
    expectValid(validate, JSON.parse(hook.body));
    expect(hook.headers.authorization).toBeUndefined();
    const bot = send(provider('slack', 'https://slack.com/api/chat.postMessage', 'xoxb-1', { channel: '#deploys' }));
    const body = JSON.parse(bot.body) as { channel: string; text: string };
    expectValid(validate, body);
    expect(body.channel).toBe('#deploys');
    expect(bot.headers.authorization).toBe('Bearer xoxb-1');
    expect(body.text).toBe('team-a: main@aaaaaaa: 25 events (25 errors)');
  });

  it('Microsoft Teams Workflows: a message with one Adaptive Card', () => {
    const r = send(provider('msteams', 'https://prod.westeurope.logic.azure.com/workflows/x'));
    expectValid(schema('msteams-workflows.schema.json'), JSON.parse(r.body));
    expect(r.body).toContain('… and 5 more');
  });

  it('Discord: execute-webhook with one embed', () => {
    const r = send(provider('discord', 'https://discord.com/api/webhooks/1/x'));
    expectValid(schema('discord-webhook.schema.json'), JSON.parse(r.body));
  });

  it('Alertmanager: POST /api/v2/alerts with postableAlerts, per its own OpenAPI description', () => {
    const doc = parse(readFileSync(join(SCHEMAS, 'alertmanager-v2-openapi.yaml'), 'utf8')) as {
      basePath: string;
      paths: Record<string, Record<string, unknown>>;
      definitions: object;
    };
    const am = new Ajv({ strict: false, allErrors: true });
    addFormats.default(am);
    am.addSchema({ definitions: doc.definitions }, 'am');
    const r = send(provider('alertmanager', 'http://127.0.0.1:9093/'));
    expect(r.url).toBe(`http://127.0.0.1:9093${doc.basePath.replace(/\/$/, '')}/alerts`);
    expect(doc.paths['/alerts']?.post).toBeDefined();
    expectValid(am.compile({ $ref: 'am#/definitions/postableAlerts' }), JSON.parse(r.body));
  });

  it('generic: the whole group, signed with HMAC-SHA256 of the exact body', () => {
    const r = send(provider('generic', 'http://127.0.0.1:1/hook', 'key'));
    expect(r.headers['x-signature']).toBe(`sha256=${createHmac('sha256', 'key').update(r.body).digest('hex')}`);
    expect(JSON.parse(r.body)).toMatchObject({ alert: 'default/team', revision: REVISION, total: 25 });
    expect(send(provider('generic', 'http://127.0.0.1:1/hook')).headers['x-signature']).toBeUndefined();
  });
});

/**
 * GitLab, Gitea and Bitbucket publish no OpenAPI description on the npm registry (GitHub's is
 * checked by a receiver in commit-status.test.ts). What is checked here is what their REST
 * documentation says: the path, the verb, the state names and the body fields.
 *   GitLab:    https://docs.gitlab.com/api/commits/#set-the-pipeline-status-of-a-commit
 *   Gitea:     https://gitea.com/api/swagger#/repository/repoCreateStatus
 *   Bitbucket: https://developer.atlassian.com/cloud/bitbucket/rest/api-group-commit-statuses/
 *              (#api-repositories-workspace-repo-slug-commit-commit-statuses-build-post)
 * Gitea's and Bitbucket Cloud's own OpenAPI descriptions check the same requests in test/preview/forges.test.ts.
 */
describe('commit status requests of the other forges, by their documentation', () => {
  const sha = 'b'.repeat(40);

  it('GitLab: POST /api/v4/projects/:id/statuses/:sha, the project path URL-encoded, token in PRIVATE-TOKEN', () => {
    const r = status(provider('gitlab', 'https://gitlab.example.com/group/sub/project.git', 'glpat-x'), 'failure');
    expect(r.method).toBe('POST');
    expect(r.url).toBe(`https://gitlab.example.com/api/v4/projects/group%2Fsub%2Fproject/statuses/${sha}`);
    expect(r.headers['private-token']).toBe('glpat-x');
    const body = JSON.parse(r.body) as Record<string, string>;
    expect(Object.keys(body).sort()).toEqual(['description', 'name', 'state', 'target_url']);
    expect(body.state).toBe('failed');
    expect(['pending', 'running', 'success', 'failed', 'canceled']).toContain(
      JSON.parse(status(provider('gitlab', 'https://g/a/b'), 'pending').body).state,
    );
  });

  it("Gitea/Forgejo: POST /api/v1/repos/{owner}/{repo}/statuses/{sha}, GitHub's states, token auth", () => {
    const r = status(provider('gitea', 'https://gitea.example.com/acme/flows', 'tok'), 'error');
    expect(r.url).toBe(`https://gitea.example.com/api/v1/repos/acme/flows/statuses/${sha}`);
    expect(r.headers.authorization).toBe('token tok');
    const body = JSON.parse(r.body) as Record<string, string>;
    expect(Object.keys(body).sort()).toEqual(['context', 'description', 'state', 'target_url']);
    expect(body.state).toBe('error');
  });

  it('Bitbucket Cloud: POST …/commit/{commit}/statuses/build with key, state, url; basic auth', () => {
    const r = status(provider('bitbucket', 'https://bitbucket.org/workspace/repo', 'me:app-pass'), 'success');
    expect(r.url).toBe(`https://api.bitbucket.org/2.0/repositories/workspace/repo/commit/${sha}/statuses/build`);
    expect(r.headers.authorization).toBe(`Basic ${Buffer.from('me:app-pass').toString('base64')}`);
    const body = JSON.parse(r.body) as Record<string, string>;
    expect(Object.keys(body).sort()).toEqual(['description', 'key', 'name', 'state', 'type', 'url']);
    expect(body.state).toBe('SUCCESSFUL');
    expect(body.key!.length).toBeLessThanOrEqual(40);
  });

  it('GitHub: description cut to the 140 characters GitHub accepts', () => {
    const r = status(provider('github', 'https://github.com/acme/flows', 't'), 'success');
    expect(r.url).toBe(`https://api.github.com/repos/acme/flows/statuses/${sha}`);
    expect((JSON.parse(r.body) as { description: string }).description).toHaveLength(140);
  });

  it('an address without owner/repo is a clear error naming the field', () => {
    expect(() => status(provider('gitea', 'https://gitea.example.com/'), 'success')).toThrow(
      /spec\.address: expected the repository URL/,
    );
  });
});
