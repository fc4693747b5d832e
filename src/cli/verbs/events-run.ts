// `flowops events KIND/NAME`: the object's core/v1 Events, oldest first, as `kubectl events --for` shows them.

import { objectRefOf } from '../object-arg.js';
import type { KubeClient, KubeObject } from '../../kube/index.js';
import { renderTable } from '../history-command.js';

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
  const kind = await objectRefOf(kube, arg, namespace);
  const name = kind.name;
  const ns = kind.namespace ?? 'default';
  const selector = [
    `involvedObject.kind=${kind.kind}`,
    `involvedObject.name=${name}`,
    ...(kind.namespaced ? [`involvedObject.namespace=${ns}`] : []),
  ].join(',');
  const { items } = await kube.list('v1', 'Event', { namespace: ns, fieldSelector: selector });
  const events = (items as EventObject[]).sort((a, b) => when(a).localeCompare(when(b)));
  if (!events.length) return `No events found for ${kind.kind} ${name}.\n`;
  const rows = [['LAST SEEN', 'TYPE', 'REASON', 'COUNT', 'MESSAGE']];
  for (const e of events)
    rows.push([when(e), e.type ?? '', e.reason ?? '', String(e.count ?? 1), (e.message ?? '').replace(/\s+/g, ' ')]);
  return renderTable(rows);
}

const when = (e: EventObject): string =>
  e.lastTimestamp ?? e.eventTime ?? e.firstTimestamp ?? e.metadata.creationTimestamp ?? '';
