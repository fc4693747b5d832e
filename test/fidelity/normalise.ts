// What may differ between two correct API servers, replaced by placeholders before comparing: the
// values each server makes up (uids, times, resourceVersions, continue tokens, allocated IPs,
// generateName suffixes), its own address, and the order of lists whose order is unspecified.

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

const TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/;
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;
/** Keys whose value each server makes up. */
const MADE_UP: Record<string, string> = { uid: '<uid>', resourceVersion: '<rv>', continue: '<continue>' };
const ALLOCATED_IPS = new Set(['clusterIP', 'clusterIPs']);

export interface NormaliseContext {
  /** host:port of the server that answered, replaced by `<server>` in every string. */
  address: string;
}

export function normalise(value: Json, ctx: NormaliseContext): Json {
  if (typeof value === 'string') return normaliseString(value, ctx);
  if (Array.isArray(value)) return value.map((v) => normalise(v, ctx));
  if (value === null || typeof value !== 'object') return value;
  const out: { [k: string]: Json } = {};
  for (const [k, v] of Object.entries(value)) {
    if (typeof v === 'string' && v !== '' && MADE_UP[k] !== undefined) out[k] = MADE_UP[k]!;
    else if (typeof v === 'string' && TIME.test(v)) out[k] = '<time>';
    else if (ALLOCATED_IPS.has(k)) out[k] = allocatedIp(v);
    else out[k] = normalise(v, ctx);
  }
  const meta = out.metadata;
  if (meta && typeof meta === 'object' && !Array.isArray(meta)) normaliseGeneratedName(meta);
  if (out.kind === 'Table' && Array.isArray(out.columnDefinitions)) normaliseTableCells(out);
  if (out.kind === 'CertificateSigningRequest') normaliseRequester(out.spec);
  if (out.kind === 'CertificateSigningRequestList' && Array.isArray(out.items))
    for (const item of out.items)
      if (item && typeof item === 'object' && !Array.isArray(item)) normaliseRequester(item.spec);
  return out;
}

/**
 * A CertificateSigningRequest names the user who created it, and the two servers' clients are
 * different users by design (the real one's admin client certificate, whose extra names the
 * certificate's hash; the embedded one in open mode, anonymous): compared is only that the server
 * stamped a user, not which.
 */
function normaliseRequester(spec: Json | undefined): void {
  if (!spec || typeof spec !== 'object' || Array.isArray(spec)) return;
  if (typeof spec.username !== 'string') return;
  for (const k of ['username', 'uid', 'groups', 'extra']) delete spec[k];
  spec.username = '<requester>';
}

/** Server-made numbers inside messages (a precondition failure names the record's resourceVersion). */
const RECORD_VERSION = /ResourceVersion in record \(\d+\)/g;
/** A too-large resourceVersion's answer names the server's own current revision. */
const CURRENT_VERSION = /(Too large resource version: \d+, current: )\d+/g;

/** The ServiceAccount admission plugin's token volume has a random suffix (utilrand.String(5)). */
const TOKEN_VOLUME = /\bkube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}\b/g;

function normaliseString(s: string, ctx: NormaliseContext): string {
  s = s.replace(TOKEN_VOLUME, 'kube-api-access-<suffix>');
  s = s.replace(RECORD_VERSION, 'ResourceVersion in record (<rv>)');
  s = s.replace(CURRENT_VERSION, '$1<rv>');
  s = s.replace(UUID, '<uid>');
  // A time in a list (a Table's "Created At" cell).
  if (TIME.test(s)) return '<time>';
  return s.includes(ctx.address) ? s.split(ctx.address).join('<server>') : s;
}

function allocatedIp(v: Json | undefined): Json {
  if (typeof v === 'string') return IPV4.test(v) ? '<ip>' : v;
  if (Array.isArray(v)) return v.map(allocatedIp);
  return v ?? null;
}

function normaliseGeneratedName(meta: { [k: string]: Json }): void {
  const prefix = meta.generateName;
  if (
    typeof prefix === 'string' &&
    typeof meta.name === 'string' &&
    meta.name.startsWith(prefix) &&
    meta.name.length > prefix.length
  ) {
    meta.name = `${prefix}<suffix>`;
  }
}

/** A Table's cells that tick (Age: a duration since creation) or are allocated (Cluster-IP). */
/** Cells of made-up values; a CertificateSigningRequest's Requestor is each side's user (normaliseRequester). */
const MADE_UP_CELLS: Record<string, string> = { Age: '<age>', 'Cluster-IP': '<ip>', Requestor: '<requester>' };

function normaliseTableCells(table: { [k: string]: Json }): void {
  const columns = table.columnDefinitions as Json[];
  columns.forEach((c, i) => {
    const placeholder =
      c !== null && typeof c === 'object' && !Array.isArray(c) && typeof c.name === 'string'
        ? MADE_UP_CELLS[c.name]
        : undefined;
    if (placeholder === undefined || !Array.isArray(table.rows)) return;
    for (const row of table.rows) {
      if (
        row &&
        typeof row === 'object' &&
        !Array.isArray(row) &&
        Array.isArray(row.cells) &&
        i < row.cells.length &&
        row.cells[i] !== '<none>'
      )
        row.cells[i] = placeholder;
    }
  });
}

/** The headers compared; the rest (Audit-Id, Date, X-Kubernetes-Pf-*, Cache-Control, …) are each server's own. */
export function normaliseHeaders(headers: Record<string, string>): Record<string, string> {
  const type = headers['content-type'];
  return type === undefined ? {} : { 'content-type': type.replace(/\s+/g, '').toLowerCase() };
}

/** Reads a dotted path (`metadata.resourceVersion`, `items.0.metadata.name`). */
export function pick(value: Json, path: string): Json | undefined {
  let cur: Json | undefined = value;
  for (const part of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = Array.isArray(cur) ? cur[Number(part)] : cur[part];
  }
  return cur;
}

/** Removes a dotted path (no-op when absent). */
export function omit(value: Json, path: string): void {
  const parts = path.split('.');
  const last = parts.pop()!;
  const parent = parts.length ? pick(value, parts.join('.')) : value;
  if (parent && typeof parent === 'object' && !Array.isArray(parent)) delete parent[last];
}
