import type { JsonObject, JsonValue } from '../registry/types.js';
import { humanDuration } from './human-duration.js';
import { ageCell, createdAtCell, get, isMap, list, num, orNone, strings, text } from './cell-values.js';
import type { Cell } from './builtin-cells.js';

/**
 * The cells of the groups served since kube-apiserver 1.34's default set was completed:
 * admissionregistration, certificates, CSI storage, networking's ServiceCIDR/IPAddress, DRA, flow
 * control, node and apiregistration. Each follows its printer in
 * pkg/printers/internalversion/printers.go (v1.34.4: printMutatingWebhook, printCertificateSigningRequest,
 * printCSIDriver, printFlowSchema, printResourceClaim, …) or, for APIService, kube-aggregator's
 * pkg/registry/apiservice/etcd's table convertor. Column definitions come from a real server
 * (builtin-column-definitions.json); these compute the values.
 */
const age: Cell = ageCell;
const createdAt: Cell = createdAtCell;
const length = (v: JsonValue | undefined): number => (Array.isArray(v) ? v.length : 0);
/** A *bool with Go's default when unset. */
const flag = (v: JsonValue | undefined, unset: boolean): boolean => (typeof v === 'boolean' ? v : unset);
const webhookCells: Record<string, Cell> = { Webhooks: (o) => length(o.webhooks), Age: age };

/** extractCSRStatus: Denied or Approved or Pending, then ",Failed" and ",Issued". */
function csrCondition(o: JsonObject): string {
  const types = new Set(list(get(o, 'status', 'conditions')).map((c) => text(c.type)));
  let status = types.has('Denied') ? 'Denied' : types.has('Approved') ? 'Approved' : 'Pending';
  if (types.has('Failed')) status += ',Failed';
  if (text(get(o, 'status', 'certificate'))) status += ',Issued';
  return status;
}

/** The binding's ParamRef column: ns/name, * /name for any namespace, or the selector. */
function paramRef(o: JsonObject): string {
  const ref = get(o, 'spec', 'paramRef');
  if (!isMap(ref)) return '<unset>';
  if (text(ref.name)) return `${text(ref.namespace) || '*'}/${text(ref.name)}`;
  if (isMap(ref.selector)) {
    const labels = ref.selector.matchLabels;
    return isMap(labels)
      ? Object.keys(labels)
          .sort()
          .map((k) => `${k}=${text(labels[k])}`)
          .join(',')
      : '';
  }
  return '<unset>';
}

/** printIPAddress: group resource lower-cased, then namespace and name. */
function parentRef(o: JsonObject): string {
  const ref = get(o, 'spec', 'parentRef');
  if (!isMap(ref)) return '<none>';
  const gr = text(ref.group) ? `${text(ref.resource)}.${text(ref.group)}` : text(ref.resource);
  return `${gr.toLowerCase()}${text(ref.namespace) ? `/${text(ref.namespace)}` : ''}/${text(ref.name)}`;
}

/** resourceClaimState: deleted, pending, allocated, reserved. */
function claimState(o: JsonObject): string {
  const states: string[] = [];
  const deleted = get(o, 'metadata', 'deletionTimestamp') !== undefined;
  if (deleted) states.push('deleted');
  if (get(o, 'status', 'allocation') === undefined) {
    if (!deleted) states.push('pending');
  } else {
    states.push('allocated');
    if (length(get(o, 'status', 'reservedFor'))) states.push('reserved');
  }
  return states.join(',');
}

/** kube-aggregator: True, or "False (Reason)", or Unknown without the condition. */
function apiServiceAvailable(o: JsonObject): string {
  const c = list(get(o, 'status', 'conditions')).find((x) => x.type === 'Available');
  if (!c) return 'Unknown';
  return c.status !== 'True' && text(c.reason) ? `${text(c.status)} (${text(c.reason)})` : text(c.status);
}

const limited = (o: JsonObject, ...path: string[]): JsonValue => {
  const v = get(o, 'spec', 'limited', ...path);
  return v === undefined ? '<none>' : v;
};
const queuing = (o: JsonObject, field: string): JsonValue =>
  isMap(get(o, 'spec', 'limited', 'limitResponse', 'queuing'))
    ? limited(o, 'limitResponse', 'queuing', field)
    : '<none>';

export const GROUP_CELLS: Record<string, Record<string, Cell>> = {
  'admissionregistration.k8s.io/MutatingWebhookConfiguration': webhookCells,
  'admissionregistration.k8s.io/ValidatingWebhookConfiguration': webhookCells,
  'admissionregistration.k8s.io/ValidatingAdmissionPolicy': {
    Validations: (o) => length(get(o, 'spec', 'validations')),
    ParamKind: (o) => {
      const k = get(o, 'spec', 'paramKind');
      return isMap(k) ? `${text(k.apiVersion)}/${text(k.kind)}` : '<unset>';
    },
    Age: age,
  },
  'admissionregistration.k8s.io/ValidatingAdmissionPolicyBinding': {
    PolicyName: (o) => text(get(o, 'spec', 'policyName')),
    ParamRef: paramRef,
    Age: age,
  },
  '/ComponentStatus': {
    Status: (o) => {
      const c = list(o.conditions).find((x) => x.type === 'Healthy');
      return c ? (c.status === 'True' ? 'Healthy' : 'Unhealthy') : 'Unknown';
    },
    Message: (o) => text(list(o.conditions).find((x) => x.type === 'Healthy')?.message),
    Error: (o) => text(list(o.conditions).find((x) => x.type === 'Healthy')?.error),
  },
  'certificates.k8s.io/CertificateSigningRequest': {
    Age: age,
    SignerName: (o) => orNone(get(o, 'spec', 'signerName')),
    Requestor: (o) => text(get(o, 'spec', 'username')),
    RequestedDuration: (o) => {
      const s = get(o, 'spec', 'expirationSeconds');
      return typeof s === 'number' ? humanDuration(s * 1000) : '<none>';
    },
    Condition: csrCondition,
  },
  'storage.k8s.io/CSIDriver': {
    AttachRequired: (o) => flag(get(o, 'spec', 'attachRequired'), true),
    PodInfoOnMount: (o) => flag(get(o, 'spec', 'podInfoOnMount'), false),
    StorageCapacity: (o) => flag(get(o, 'spec', 'storageCapacity'), false),
    TokenRequests: (o) => {
      const t = get(o, 'spec', 'tokenRequests');
      return Array.isArray(t)
        ? list(t)
            .map((r) => text(r.audience))
            .join(',')
        : '<unset>';
    },
    RequiresRepublish: (o) => flag(get(o, 'spec', 'requiresRepublish'), false),
    Modes: (o) => strings(get(o, 'spec', 'volumeLifecycleModes')).join(',') || '<none>',
    Age: age,
  },
  'storage.k8s.io/CSINode': { Drivers: (o) => length(get(o, 'spec', 'drivers')), Age: age },
  'storage.k8s.io/CSIStorageCapacity': { 'Created At': createdAt },
  'storage.k8s.io/VolumeAttachment': {
    Attacher: (o) => text(get(o, 'spec', 'attacher')),
    PV: (o) => text(get(o, 'spec', 'source', 'persistentVolumeName')),
    Node: (o) => text(get(o, 'spec', 'nodeName')),
    Attached: (o) => get(o, 'status', 'attached') === true,
    Age: age,
  },
  'storage.k8s.io/VolumeAttributesClass': { DriverName: (o) => text(o.driverName), Age: age },
  'networking.k8s.io/ServiceCIDR': { CIDRs: (o) => strings(get(o, 'spec', 'cidrs')).join(','), Age: age },
  'networking.k8s.io/IPAddress': { ParentRef: parentRef, Age: age },
  'resource.k8s.io/DeviceClass': { Age: age },
  'resource.k8s.io/ResourceClaim': { State: claimState, Age: age },
  'resource.k8s.io/ResourceClaimTemplate': { Age: age },
  'resource.k8s.io/ResourceSlice': {
    Node: (o) => text(get(o, 'spec', 'nodeName')),
    Driver: (o) => text(get(o, 'spec', 'driver')),
    Pool: (o) => text(get(o, 'spec', 'pool', 'name')),
    Age: age,
  },
  'flowcontrol.apiserver.k8s.io/FlowSchema': {
    PriorityLevel: (o) => text(get(o, 'spec', 'priorityLevelConfiguration', 'name')),
    MatchingPrecedence: (o) => num(get(o, 'spec', 'matchingPrecedence')),
    DistinguisherMethod: (o) => orNone(get(o, 'spec', 'distinguisherMethod', 'type')),
    Age: age,
    MissingPL: (o) => text(list(get(o, 'status', 'conditions')).find((c) => c.type === 'Dangling')?.status) || '?',
  },
  'flowcontrol.apiserver.k8s.io/PriorityLevelConfiguration': {
    Type: (o) => text(get(o, 'spec', 'type')),
    NominalConcurrencyShares: (o) => limited(o, 'nominalConcurrencyShares'),
    Queues: (o) => queuing(o, 'queues'),
    HandSize: (o) => queuing(o, 'handSize'),
    QueueLengthLimit: (o) => queuing(o, 'queueLengthLimit'),
    Age: age,
  },
  'node.k8s.io/RuntimeClass': { Handler: (o) => text(o.handler), Age: age },
  'apiregistration.k8s.io/APIService': {
    Service: (o) => {
      const s = get(o, 'spec', 'service');
      return isMap(s) ? `${text(s.namespace)}/${text(s.name)}` : 'Local';
    },
    Available: apiServiceAvailable,
    Age: age,
  },
};
