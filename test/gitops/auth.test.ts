import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFlowOps, type FlowOpsEnv } from '../helpers/flowops.js';
import { startGitServer, type GitServer, type TestRepo } from '../helpers/git-server.js';
import { waitFor } from '../helpers/wait.js';
import { flowNames, flowSource, flowYaml, ready, sourceStatus } from './fixtures.js';

const PASSWORD = 'correct-horse-battery';
const WRONG = 'wrong-password-9f3a';

const secret = (name: string, data: Record<string, string>) => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name, namespace: 'default' },
  data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Buffer.from(v).toString('base64')])),
});

describe('FlowSource over an authenticated Git server', () => {
  let env: FlowOpsEnv;
  let gitServer: GitServer;
  let repo: TestRepo;
  let logs = '';

  beforeAll(async () => {
    const sink = new Writable({
      write: (chunk: Buffer, _e, cb) => {
        logs += chunk.toString();
        cb();
      },
    });
    env = await startFlowOps({
      log: pino({ level: 'debug' }, sink),
      sources: { dataDir: mkdtempSync(join(tmpdir(), 'flowops-sources-')) },
    });
    gitServer = await startGitServer({ auth: { username: 'bot', password: PASSWORD } });
    repo = gitServer.repo('private');
    await repo.commit({ 'flow.yaml': flowYaml('private-flow') });
  });
  afterAll(async () => {
    await env?.stop();
    await gitServer?.stop();
  });

  const readyOf = async (name: string) =>
    waitFor(
      async () => {
        const r = ready(await sourceStatus(env.kube, name));
        return r?.reason && r.reason !== 'Applied' ? r : r?.status === 'True' ? r : undefined;
      },
      { what: `${name} to report` },
    );

  it('says authentication is required when no secretRef is set', async () => {
    await env.kube.create(flowSource('no-creds', repo.url));
    const r = await readyOf('no-creds');
    expect(r).toMatchObject({ status: 'False', reason: 'AuthRequired' });
    expect(r.message).toMatch(
      /^authentication required: http:\/\/127\.0\.0\.1:\d+\/private\.git answered 401; set spec\.secretRef/,
    );
  });

  it('says the credentials were rejected, and never shows them', async () => {
    await env.kube.create(secret('wrong', { username: 'bot', password: WRONG }));
    await env.kube.create(flowSource('wrong-creds', repo.url, { secretRef: { name: 'wrong' } }));
    const r = await readyOf('wrong-creds');
    expect(r).toMatchObject({ status: 'False', reason: 'AuthFailed' });
    expect(r.message).toContain('authentication failed for http://127.0.0.1:');
    const src = await env.kube.get({
      apiVersion: 'flowops.io/v1',
      kind: 'FlowSource',
      name: 'wrong-creds',
      namespace: 'default',
    });
    const events = await env.kube.list('v1', 'Event', { namespace: 'default' });
    expect(
      events.items.some(
        (e) => (e.involvedObject as { name: string }).name === 'wrong-creds' && e.reason === 'AuthFailed',
      ),
    ).toBe(true);
    for (const text of [JSON.stringify(src), JSON.stringify(events.items), logs]) {
      expect(text).not.toContain(WRONG);
      expect(text).not.toContain(PASSWORD);
    }
    expect(logs).toContain('authentication failed');
  });

  it('applies the commit with the right credentials', async () => {
    await env.kube.create(secret('right', { username: 'bot', password: PASSWORD }));
    await env.kube.create(flowSource('right-creds', repo.url, { secretRef: { name: 'right' } }));
    expect(await readyOf('right-creds')).toMatchObject({ status: 'True', reason: 'Applied' });
    expect(await flowNames(env.kube)).toEqual(['private-flow']);
    expect(logs).not.toContain(PASSWORD);
  });
});
