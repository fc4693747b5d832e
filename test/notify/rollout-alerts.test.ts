import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Notifier } from '../../src/notify/index.js';
import { startFlowOps, type FlowOpsEnv } from '../helpers/flowops.js';
import { waitFor } from '../helpers/wait.js';
import { isReady, listShops, generationOf, rolloutOf, SHOP_CRD, shopFlow, shops } from '../rollout/fixtures.js';
import { cachedAlertmanager, startAlertmanager, type RunningAlertmanager } from './alertmanager-binary.js';
import { alert, capturedLog, provider } from './fixtures.js';

// Issue #24's alert: a Flow's rollout Events are an event source an Alert selects like any other
// FlowOps Event: the halt (error, naming the objects and their reasons) and the stages passed and
// the completion (info). The receiver is the real Alertmanager (API v2), which refuses what its
// schema does not accept; skipped when scripts/control-plane/build-alertmanager.sh has not run.

const amBin = cachedAlertmanager();
const N = 5;
const NEVER = '{{ eq .Child.data.version "never" }}';

interface AmAlert {
  labels: Record<string, string>;
  annotations: Record<string, string>;
}

describe.skipIf(!amBin)('Alerts on a Flow rollout', () => {
  let env: FlowOpsEnv;
  let notifier: Notifier;
  let am: RunningAlertmanager;
  const captured = capturedLog();

  beforeAll(async () => {
    am = await startAlertmanager(amBin ?? '');
    env = await startFlowOps();
    await env.kubectl.ok(['apply', '-f', '-'], SHOP_CRD);
    notifier = new Notifier({ kube: env.kube, log: captured.log, backoff: { baseMs: 100, maxMs: 400 } });
    notifier.start();
    await env.kube.create(provider('am', { type: 'alertmanager', address: am.url }));
    await env.kube.create(
      alert('halts', {
        providerRef: { name: 'am' },
        eventSources: [{ kind: 'Flow', name: 'halt' }],
        eventSeverity: 'error',
        groupWindow: '1h',
      }),
    );
    await env.kube.create(
      alert('stages', {
        providerRef: { name: 'am' },
        eventSources: [{ kind: 'Flow', name: 'fine' }],
        eventSeverity: 'info',
        inclusionList: ['^stage \\d+ of \\d+ passed', '^rollout of generation \\d+ complete'],
        groupWindow: '1h',
      }),
    );
    await waitFor(() => notifier.synced(), { what: 'the notifier listing Events and Flows' });
  }, 60_000);
  afterAll(async () => {
    await notifier?.stop();
    await env?.stop();
    await am?.stop();
  });

  async function settled(suite: string, g: string): Promise<void> {
    await waitFor(
      async () => {
        const objs = await listShops(env.kube, suite);
        return objs.length === N && objs.every((o) => generationOf(o) === g && isReady(o));
      },
      { what: `${N} ${suite} Shops Ready on generation ${g}`, timeoutMs: 60_000 },
    );
  }

  /** The alerts Alertmanager holds for one FlowOps Alert. */
  async function alertsOf(name: string, has: (a: AmAlert) => boolean): Promise<AmAlert[]> {
    return waitFor(
      async () => {
        const list = (await (await fetch(`${am.url}/api/v2/alerts`)).json()) as AmAlert[];
        const mine = list.filter((a) => a.labels.flowops_alert === `default/${name}`);
        return mine.some(has) ? mine : undefined;
      },
      { what: `Alertmanager to hold the alert of default/${name}`, timeoutMs: 30_000 },
    );
  }

  it('sends RolloutHalted as an error with the failing objects and their reasons', async () => {
    const rollout = 'stages:\n  - count: 1\n  - percent: 100\nprogressDeadline: 2s\n';
    await env.kubectl.ok(['apply', '-f', '-'], shopFlow({ name: 'halt', suite: 'halt', version: 'v1', rollout }));
    await env.kubectl.ok(['apply', '-f', '-'], shops('halt', N));
    await settled('halt', '1');
    await env.kubectl.ok(
      ['apply', '-f', '-'],
      shopFlow({ name: 'halt', suite: 'halt', version: 'v2', readyWhen: NEVER, rollout }),
    );
    await waitFor(async () => (await rolloutOf(env.kube, 'halt'))?.state === 'Halted', {
      what: 'the rollout Halted',
      timeoutMs: 30_000,
    });
    await waitFor(() => notifier.held(undefined).includes('Flow:RolloutHalted'), {
      what: 'RolloutHalted held for the Alert',
    });
    notifier.flush();
    const held = await alertsOf('halts', (a) => /RolloutHalted/.test(a.annotations.description ?? ''));
    const halted = held.find((a) => /RolloutHalted/.test(a.annotations.description ?? ''));
    expect(halted?.labels).toMatchObject({ alertname: 'FlowOps', severity: 'error', kind: 'Flow' });
    const description = halted?.annotations.description ?? '';
    expect(description).toContain('Flow/default/halt RolloutHalted: stage 1 of 2 of generation 2 failed');
    expect(description).toContain('default/halt-000: not Ready within 2s');
    // The halt's info Events (the stage started) are not an error: this Alert leaves them out.
    expect(description).not.toContain('RolloutStageStarted');
  });

  it('sends the stages passed and the completion at info severity', async () => {
    const rollout = 'stages:\n  - count: 1\n  - percent: 100\n';
    await env.kubectl.ok(['apply', '-f', '-'], shopFlow({ name: 'fine', suite: 'fine', version: 'v1', rollout }));
    await env.kubectl.ok(['apply', '-f', '-'], shops('fine', N));
    await settled('fine', '1');
    await env.kubectl.ok(['apply', '-f', '-'], shopFlow({ name: 'fine', suite: 'fine', version: 'v2', rollout }));
    await waitFor(async () => (await rolloutOf(env.kube, 'fine'))?.state === 'Complete', {
      what: 'the rollout Complete',
      timeoutMs: 30_000,
    });
    await waitFor(() => notifier.held(undefined).includes('Flow:RolloutComplete'), {
      what: 'RolloutComplete held for the Alert',
    });
    notifier.flush();
    const held = await alertsOf('stages', (a) => /RolloutComplete/.test(a.annotations.description ?? ''));
    const a = held.find((x) => /RolloutComplete/.test(x.annotations.description ?? ''));
    expect(a?.labels.severity).toBe('info');
    const description = a?.annotations.description ?? '';
    expect(description).toContain('Flow/default/fine RolloutStagePassed: stage 1 of 2 passed');
    expect(description).toContain('Flow/default/fine RolloutStagePassed: stage 2 of 2 passed');
    expect(description).toContain('Flow/default/fine RolloutComplete: rollout of generation 2 complete');
  });
});
