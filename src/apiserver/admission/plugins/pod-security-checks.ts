import type { JsonObject, JsonValue } from '../../registry/types.js';
import { isMap, maps, mapAt } from './lookup.js';

/**
 * The Pod Security Standards' checks (k8s.io/pod-security-admission/policy/check_*.go), each with
 * upstream's ID, level, first version and words; run baseline IDs sorted, then restricted IDs
 * sorted, restricted's capabilities and seccomp checks replacing baseline's (registry.go). As
 * kube-apiserver 1.34 sets its feature gates: ProbeHostPodSecurityStandards on (GA, locked), so
 * hostProbesAndHostLifecycle checks from v1.34; UserNamespacesPodSecurityStandards off (alpha), so a
 * Pod with hostUsers false is not relaxed.
 */
export type Level = 'privileged' | 'baseline' | 'restricted';

export interface Violation {
  reason: string;
  detail: string;
}

interface Check {
  id: string;
  level: 'baseline' | 'restricted';
  /** The minor of v1.x the check starts at. */
  since: number;
  overrides?: string;
  run: (spec: JsonObject, minor: number, meta: JsonObject) => Violation | undefined;
}

const plural = (one: string, many: string, n: number) => (n === 1 ? one : many);
const quote = (items: string[]) => (items.length ? `"${items.join('", "')}"` : '');
const containersText = (names: string[]) => `${plural('container', 'containers', names.length)} ${quote(names)}`;
const sorted = (s: Set<string>) => [...s].sort();
const IN_ADD = 'in securityContext.capabilities.add';

/** visitContainers: init containers, containers, ephemeral containers. */
function containers(spec: JsonObject): JsonObject[] {
  return [...maps(spec.initContainers), ...maps(spec.containers), ...maps(spec.ephemeralContainers)];
}
const securityContext = (c: JsonObject): JsonObject | undefined =>
  isMap(c.securityContext) ? c.securityContext : undefined;
const name = (c: JsonObject) => String(c.name ?? '');
const windows = (spec: JsonObject, minor: number) => minor >= 25 && mapAt(spec, 'os').name === 'windows';

const BASELINE_CAPABILITIES = new Set([
  'AUDIT_WRITE',
  'CHOWN',
  'DAC_OVERRIDE',
  'FOWNER',
  'FSETID',
  'KILL',
  'MKNOD',
  'NET_BIND_SERVICE',
  'SETFCAP',
  'SETGID',
  'SETPCAP',
  'SETUID',
  'SYS_CHROOT',
]);
const ALLOWED_VOLUMES = [
  'configMap',
  'csi',
  'downwardAPI',
  'emptyDir',
  'ephemeral',
  'image',
  'persistentVolumeClaim',
  'projected',
  'secret',
];
const RESTRICTED_VOLUMES = [
  'hostPath',
  'gcePersistentDisk',
  'awsElasticBlockStore',
  'gitRepo',
  'nfs',
  'iscsi',
  'glusterfs',
  'rbd',
  'flexVolume',
  'cinder',
  'cephfs',
  'flocker',
  'fc',
  'azureFile',
  'vsphereVolume',
  'quobyte',
  'azureDisk',
  'photonPersistentDisk',
  'portworxVolume',
  'scaleIO',
  'storageos',
];

const seccompType = (sc: JsonObject | undefined): JsonValue | undefined =>
  sc && isMap(sc.seccompProfile) ? (sc.seccompProfile.type ?? '') : undefined;
const validSeccomp = (t: JsonValue | undefined) => t === 'RuntimeDefault' || t === 'Localhost';

/** Who sets a bad value: `pod and containers "a", "b"`. */
function setters(pod: boolean, bad: string[]): string {
  const parts = pod ? ['pod'] : [];
  if (bad.length) parts.push(containersText(bad));
  return parts.join(' and ');
}

function seccomp(spec: JsonObject, restricted: boolean): Violation | undefined {
  const values = new Set<string>();
  const podType = seccompType(isMap(spec.securityContext) ? spec.securityContext : undefined);
  const podBad = podType !== undefined && !validSeccomp(podType);
  if (podBad) values.add(String(podType));
  const podSet = podType !== undefined && !podBad;
  const explicit: string[] = [];
  const implicit: string[] = [];
  for (const c of containers(spec)) {
    const t = seccompType(securityContext(c));
    if (t !== undefined) {
      if (!validSeccomp(t)) {
        explicit.push(name(c));
        values.add(String(t));
      }
    } else if (!podSet) implicit.push(name(c));
  }
  if (podBad || explicit.length) {
    const who = setters(podBad, explicit);
    const detail = `${who} must not set securityContext.seccompProfile.type to ${quote(sorted(values))}`;
    return { reason: 'seccompProfile', detail };
  }
  if (restricted && implicit.length) {
    return {
      reason: 'seccompProfile',
      detail:
        `pod or ${containersText(implicit)} must set securityContext.seccompProfile.type to ` +
        '"RuntimeDefault" or "Localhost"',
    };
  }
  return undefined;
}

const APPARMOR_ANNOTATION_PREFIX = 'container.apparmor.security.beta.kubernetes.io/';
const ALLOWED_APPARMOR = new Set(['RuntimeDefault', 'Localhost']);
const appArmorType = (sc: JsonObject): string | undefined =>
  isMap(sc.appArmorProfile) ? String(sc.appArmorProfile.type ?? '') : undefined;
const allowedAppArmorAnnotation = (v: string): boolean =>
  v === '' || v === 'runtime/default' || v.startsWith('localhost/');

const SELINUX_TYPES_1_0 = new Set(['', 'container_t', 'container_init_t', 'container_kvm_t']);
const SELINUX_TYPES_1_31 = new Set([...SELINUX_TYPES_1_0, 'container_engine_t']);

/** The safe sysctls of each version (check_sysctls.go). */
function allowedSysctls(minor: number): Set<string> {
  const names = [
    'kernel.shm_rmid_forced',
    'net.ipv4.ip_local_port_range',
    'net.ipv4.tcp_syncookies',
    'net.ipv4.ping_group_range',
    'net.ipv4.ip_unprivileged_port_start',
  ];
  if (minor >= 27) names.push('net.ipv4.ip_local_reserved_ports');
  if (minor >= 29) {
    names.push(
      'net.ipv4.tcp_keepalive_time',
      'net.ipv4.tcp_fin_timeout',
      'net.ipv4.tcp_keepalive_intvl',
      'net.ipv4.tcp_keepalive_probes',
    );
  }
  if (minor >= 32) names.push('net.ipv4.tcp_rmem', 'net.ipv4.tcp_wmem');
  return new Set(names);
}

const CHECKS: Check[] = [
  {
    id: 'capabilities_baseline',
    level: 'baseline',
    since: 0,
    run: (spec) => {
      const bad: string[] = [];
      const caps = new Set<string>();
      for (const c of containers(spec)) {
        const add = mapAt(securityContext(c) ?? {}, 'capabilities').add;
        const extra = (Array.isArray(add) ? add : []).map(String).filter((cap) => !BASELINE_CAPABILITIES.has(cap));
        for (const cap of extra) caps.add(cap);
        if (extra.length) bad.push(name(c));
      }
      if (!bad.length) return undefined;
      const detail = `${containersText(bad)} must not include ${quote(sorted(caps))} ${IN_ADD}`;
      return { reason: 'non-default capabilities', detail };
    },
  },
  {
    id: 'hostNamespaces',
    level: 'baseline',
    since: 0,
    run: (spec) => {
      const keys = ['hostNetwork', 'hostPID', 'hostIPC'] as const;
      const used = keys.filter((k) => spec[k] === true).map((k) => `${k}=true`);
      return used.length ? { reason: 'host namespaces', detail: used.join(', ') } : undefined;
    },
  },
  {
    id: 'hostPathVolumes',
    level: 'baseline',
    since: 0,
    run: (spec) => {
      const bad = maps(spec.volumes)
        .filter((v) => v.hostPath != null)
        .map(name);
      if (!bad.length) return undefined;
      return { reason: 'hostPath volumes', detail: `${plural('volume', 'volumes', bad.length)} ${quote(bad)}` };
    },
  },
  {
    id: 'hostPorts',
    level: 'baseline',
    since: 0,
    run: (spec) => {
      const bad: string[] = [];
      const ports = new Set<string>();
      for (const c of containers(spec)) {
        const used = maps(c.ports).filter((p) => typeof p.hostPort === 'number' && p.hostPort !== 0);
        for (const p of used) ports.add(String(p.hostPort));
        if (used.length) bad.push(name(c));
      }
      if (!bad.length) return undefined;
      const list = sorted(ports);
      const detail =
        `${containersText(bad)} ${plural('uses', 'use', bad.length)} ` +
        `${plural('hostPort', 'hostPorts', list.length)} ${list.join(', ')}`;
      return { reason: 'hostPort', detail };
    },
  },
  {
    id: 'privileged',
    level: 'baseline',
    since: 0,
    run: (spec) => {
      const bad = containers(spec)
        .filter((c) => securityContext(c)?.privileged === true)
        .map(name);
      if (!bad.length) return undefined;
      return { reason: 'privileged', detail: `${containersText(bad)} must not set securityContext.privileged=true` };
    },
  },
  { id: 'seccompProfile_baseline', level: 'baseline', since: 19, run: (spec) => seccomp(spec, false) },
  {
    id: 'appArmorProfile',
    level: 'baseline',
    since: 0,
    run: (spec, _minor, meta) => {
      const setters: string[] = [];
      const values = new Set<string>();
      const podType = appArmorType(mapAt(spec, 'securityContext'));
      if (podType !== undefined && !ALLOWED_APPARMOR.has(podType)) {
        setters.push('pod');
        values.add(podType);
      }
      const bad: string[] = [];
      for (const c of containers(spec)) {
        const t = appArmorType(securityContext(c) ?? {});
        if (t !== undefined && !ALLOWED_APPARMOR.has(t)) {
          bad.push(name(c));
          values.add(t);
        }
      }
      if (bad.length) setters.push(containersText(bad));
      const annotations = isMap(meta.annotations) ? meta.annotations : {};
      const forbiddenAnnotations = Object.entries(annotations)
        .filter(([k, v]) => k.startsWith(APPARMOR_ANNOTATION_PREFIX) && !allowedAppArmorAnnotation(String(v)))
        .map(([k, v]) => `${k}=${JSON.stringify(String(v))}`)
        .sort();
      const list = [...sorted(values), ...forbiddenAnnotations];
      if (forbiddenAnnotations.length) setters.push(plural('annotation', 'annotations', forbiddenAnnotations.length));
      if (!setters.length) return undefined;
      return {
        reason: plural('forbidden AppArmor profile', 'forbidden AppArmor profiles', list.length),
        detail: `${setters.join(' and ')} must not set AppArmor profile type to ${quote(list)}`,
      };
    },
  },
  {
    id: 'hostProbesAndHostLifecycle',
    level: 'baseline',
    since: 34,
    run: (spec) => {
      const bad = new Set<string>();
      const hosts = new Set<string>();
      for (const c of containers(spec)) {
        const lifecycle = mapAt(c, 'lifecycle');
        const handlers = [c.livenessProbe, c.readinessProbe, c.startupProbe, lifecycle.postStart, lifecycle.preStop];
        for (const h of handlers) {
          if (!isMap(h)) continue;
          for (const k of ['httpGet', 'tcpSocket']) {
            const host = isMap(h[k]) ? h[k].host : undefined;
            if (typeof host === 'string' && host !== '') {
              bad.add(name(c));
              hosts.add(host);
            }
          }
        }
      }
      if (!bad.size) return undefined;
      const detail =
        `${containersText(sorted(bad))} ${plural('uses', 'use', bad.size)} ` +
        `${plural('probe or lifecycle host', 'probe or lifecycle hosts', hosts.size)} ${quote(sorted(hosts))}`;
      return { reason: 'probe or lifecycle host', detail };
    },
  },
  {
    id: 'procMount',
    level: 'baseline',
    since: 0,
    run: (spec) => {
      const bad: string[] = [];
      const types = new Set<string>();
      for (const c of containers(spec)) {
        const pm = securityContext(c)?.procMount;
        if (pm === undefined || pm === null || pm === 'Default') continue;
        bad.push(name(c));
        types.add(String(pm));
      }
      if (!bad.length) return undefined;
      const detail = `${containersText(bad)} must not set securityContext.procMount to ${quote(sorted(types))}`;
      return { reason: 'procMount', detail };
    },
  },
  {
    id: 'seLinuxOptions',
    level: 'baseline',
    since: 0,
    run: (spec, minor) => {
      const allowed = minor >= 31 ? SELINUX_TYPES_1_31 : SELINUX_TYPES_1_0;
      const types = new Set<string>();
      let user = false;
      let role = false;
      const valid = (o: JsonObject): boolean => {
        let ok = true;
        const type = typeof o.type === 'string' ? o.type : '';
        if (!allowed.has(type)) {
          ok = false;
          types.add(type);
        }
        if (typeof o.user === 'string' && o.user !== '') {
          ok = false;
          user = true;
        }
        if (typeof o.role === 'string' && o.role !== '') {
          ok = false;
          role = true;
        }
        return ok;
      };
      const setters: string[] = [];
      const podOptions = mapAt(spec, 'securityContext').seLinuxOptions;
      if (isMap(podOptions) && !valid(podOptions)) setters.push('pod');
      const bad: string[] = [];
      for (const c of containers(spec)) {
        const o = securityContext(c)?.seLinuxOptions;
        if (isMap(o) && !valid(o)) bad.push(name(c));
      }
      if (bad.length) setters.push(containersText(bad));
      if (!setters.length) return undefined;
      const data: string[] = [];
      if (types.size) data.push(`${plural('type', 'types', types.size)} ${quote(sorted(types))}`);
      if (user) data.push('user may not be set');
      if (role) data.push('role may not be set');
      const detail = `${setters.join(' and ')} set forbidden securityContext.seLinuxOptions: ${data.join('; ')}`;
      return { reason: 'seLinuxOptions', detail };
    },
  },
  {
    id: 'sysctls',
    level: 'baseline',
    since: 0,
    run: (spec, minor) => {
      const allowed = allowedSysctls(minor);
      const names = maps(mapAt(spec, 'securityContext').sysctls).map((x) => String(x.name ?? ''));
      const forbidden = names.filter((n) => !allowed.has(n));
      return forbidden.length ? { reason: 'forbidden sysctls', detail: forbidden.join(', ') } : undefined;
    },
  },
  {
    id: 'windowsHostProcess',
    level: 'baseline',
    since: 0,
    run: (spec) => {
      const hostProcess = (sc: JsonObject | undefined): boolean =>
        mapAt(sc ?? {}, 'windowsOptions').hostProcess === true;
      const bad = containers(spec)
        .filter((c) => hostProcess(securityContext(c)))
        .map(name);
      const pod = hostProcess(mapAt(spec, 'securityContext'));
      if (!pod && !bad.length) return undefined;
      const detail = `${setters(pod, bad)} must not set securityContext.windowsOptions.hostProcess=true`;
      return { reason: 'hostProcess', detail };
    },
  },
  {
    id: 'allowPrivilegeEscalation',
    level: 'restricted',
    since: 8,
    run: (spec, minor) => {
      if (windows(spec, minor)) return undefined;
      const bad = containers(spec)
        .filter((c) => securityContext(c)?.allowPrivilegeEscalation !== false)
        .map(name);
      if (!bad.length) return undefined;
      const detail = `${containersText(bad)} must set securityContext.allowPrivilegeEscalation=false`;
      return { reason: 'allowPrivilegeEscalation != false', detail };
    },
  },
  {
    id: 'capabilities_restricted',
    level: 'restricted',
    since: 22,
    overrides: 'capabilities_baseline',
    run: (spec, minor) => {
      if (windows(spec, minor)) return undefined;
      const missingDrop: string[] = [];
      const adding: string[] = [];
      const caps = new Set<string>();
      for (const c of containers(spec)) {
        const sc = securityContext(c);
        if (!sc || !isMap(sc.capabilities)) {
          missingDrop.push(name(c));
          continue;
        }
        const drop = Array.isArray(sc.capabilities.drop) ? sc.capabilities.drop : [];
        if (!drop.includes('ALL')) missingDrop.push(name(c));
        const add = (Array.isArray(sc.capabilities.add) ? sc.capabilities.add : []).map(String);
        const extra = add.filter((cap) => cap !== 'NET_BIND_SERVICE');
        for (const cap of extra) caps.add(cap);
        if (extra.length) adding.push(name(c));
      }
      const details: string[] = [];
      if (missingDrop.length) {
        details.push(`${containersText(missingDrop)} must set securityContext.capabilities.drop=["ALL"]`);
      }
      if (adding.length) {
        details.push(`${containersText(adding)} must not include ${quote(sorted(caps))} ${IN_ADD}`);
      }
      return details.length ? { reason: 'unrestricted capabilities', detail: details.join('; ') } : undefined;
    },
  },
  {
    id: 'restrictedVolumes',
    level: 'restricted',
    since: 0,
    overrides: 'hostPathVolumes',
    run: (spec) => {
      const bad: string[] = [];
      const types = new Set<string>();
      for (const v of maps(spec.volumes)) {
        if (ALLOWED_VOLUMES.some((k) => v[k] != null)) continue;
        bad.push(name(v));
        types.add(RESTRICTED_VOLUMES.find((k) => v[k] != null) ?? 'unknown');
      }
      if (!bad.length) return undefined;
      const list = sorted(types);
      const detail =
        `${plural('volume', 'volumes', bad.length)} ${quote(bad)} ${plural('uses', 'use', bad.length)} ` +
        `${plural('restricted volume type', 'restricted volume types', list.length)} ${quote(list)}`;
      return { reason: 'restricted volume types', detail };
    },
  },
  {
    id: 'runAsNonRoot',
    level: 'restricted',
    since: 0,
    run: (spec) => {
      const podValue = mapAt(spec, 'securityContext').runAsNonRoot;
      const podBad = podValue === false;
      const explicit: string[] = [];
      const implicit: string[] = [];
      for (const c of containers(spec)) {
        const v = securityContext(c)?.runAsNonRoot;
        if (typeof v === 'boolean') {
          if (!v) explicit.push(name(c));
        } else if (podValue !== true) implicit.push(name(c));
      }
      if (podBad || explicit.length) {
        const detail = `${setters(podBad, explicit)} must not set securityContext.runAsNonRoot=false`;
        return { reason: 'runAsNonRoot != true', detail };
      }
      if (!implicit.length) return undefined;
      const detail = `pod or ${containersText(implicit)} must set securityContext.runAsNonRoot=true`;
      return { reason: 'runAsNonRoot != true', detail };
    },
  },
  {
    id: 'runAsUser',
    level: 'restricted',
    since: 23,
    run: (spec) => {
      const podBad = mapAt(spec, 'securityContext').runAsUser === 0;
      const explicit = containers(spec)
        .filter((c) => securityContext(c)?.runAsUser === 0)
        .map(name);
      if (!podBad && !explicit.length) return undefined;
      return { reason: 'runAsUser=0', detail: `${setters(podBad, explicit)} must not set runAsUser=0` };
    },
  },
  {
    id: 'seccompProfile_restricted',
    level: 'restricted',
    since: 19,
    overrides: 'seccompProfile_baseline',
    run: (spec, minor) => (windows(spec, minor) ? undefined : seccomp(spec, true)),
  },
];

const byId = (a: Check, b: Check) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
const ORDERED = [
  ...CHECKS.filter((c) => c.level === 'baseline').sort(byId),
  ...CHECKS.filter((c) => c.level === 'restricted').sort(byId),
];

/** The newest minor this server knows (the registry's maxVersion): later ones evaluate as it. */
export const LATEST_MINOR = 34;

/** checkRegistry.EvaluatePod, aggregated: the violations of a level at a version (undefined: latest). */
export function evaluate(
  level: Level,
  minor: number | undefined,
  spec: JsonObject,
  meta: JsonObject = {},
): Violation[] {
  if (level === 'privileged') return [];
  const v = Math.min(minor ?? LATEST_MINOR, LATEST_MINOR);
  const active = ORDERED.filter((c) => (c.level === 'baseline' || level === 'restricted') && v >= c.since);
  const overridden = new Set(level === 'restricted' ? active.map((c) => c.overrides).filter(Boolean) : []);
  const out: Violation[] = [];
  for (const c of active) {
    if (overridden.has(c.id)) continue;
    const r = c.run(spec, v, meta);
    if (r) out.push(r);
  }
  return out;
}

/** AggregateCheckResult.ForbiddenDetail: `reason (detail), reason (detail)`. */
export function forbiddenDetail(vs: Violation[]): string {
  return vs.map((v) => (v.detail ? `${v.reason} (${v.detail})` : v.reason)).join(', ');
}
