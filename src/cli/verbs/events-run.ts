// `flowops events KIND/NAME`: the object's core/v1 Events, oldest first, as `kubectl events --for` shows them.

import { resolveKind, UnknownResourceError } from '../../kube/kind-resolver.js';
import type { KubeClient } from '../../kube/client.js';
import type { KubeObject } from '../../kube/types.js';
import { renderTable } from '../history-command.js';
import { SetupError } from '../setup-error.js';

interface EventObject extends KubeObject {
  type?: string;
  reason?: string;
  message?: string;
  count?: number;
  lastTimestamp?: string;
  eventTime?: string;
  firstTimestamp?: string;
}

export async function runEvents(kube: KubeClient, arg: string, namespace: string | undefined): Promise<string> {
  const slash = arg.indexOf('/');
  if (slash <= 0 || slash === arg.length - 1) throw new SetupError(`expected KIND/NAME (e.g. database/my-postgres), got "${arg}"`);
  let kind;
  try {
    kind = await resolveKind(kube.rest, arg.slice(0, slash));
  } catch (e) {
    if (e instanceof UnknownResourceError) throw new SetupError(e.message);
    throw e;
  }
  const name = arg.slice(slash + 1);
  const ns = kind.namespaced ? (namespace ?? 'default') : 'default';
  const selector = [`involvedObject.kind=${kind.kind}`, `involvedObject.name=${name}`, ...(kind.namespaced ? [`involvedObject.namespace=${ns}`] : [])].join(',');
  const { items } = await kube.list('v1', 'Event', { namespace: ns, fieldSelector: selector });
  const events = (items as EventObject[]).sort((a, b) => when(a).localeCompare(when(b)));
  if (!events.length) return `No events found for ${kind.kind} ${name}.\n`;
  const rows = [['LAST SEEN', 'TYPE', 'REASON', 'COUNT', 'MESSAGE']];
  for (const e of events) rows.push([when(e), e.type ?? '', e.reason ?? '', String(e.count ?? 1), (e.message ?? '').replace(/\s+/g, ' ')]);
  return renderTable(rows);
}

const when = (e: EventObject): string => e.lastTimestamp ?? e.eventTime ?? e.firstTimestamp ?? e.metadata.creationTimestamp ?? '';
