import { Lexer } from 'yaml';
import { type ApiError, errors } from './status.js';

/** kube-apiserver's decoders (encoding/json, sigs.k8s.io/yaml) refuse bodies nested deeper than this. */
export const KUBE_MAX_DEPTH = 10_000;
/**
 * What this server handles: its walks after decoding (validation, defaulting, pruning, field
 * sets, strategic merge) and V8's JSON.stringify recurse once per level, and the last overflows
 * V8's stack near 4,000 levels; every write path is tested at this depth (test/apiserver/nesting.test.ts).
 */
export const SERVER_MAX_DEPTH = 2_000;
/** The `yaml` library composes flow collections recursively and overflows near 900 levels (and runs out of memory near 10,000). */
export const YAML_FLOW_MAX_DEPTH = 500;

/** Where a body is decoded; kube-apiserver words the refusal differently at each. */
export type DecodeSite =
  | { object: string } // POST or PUT of this kind
  | 'patch' // JSON and merge patches
  | 'strategic'
  | 'apply';

interface Nesting {
  depth: number;
  /** The bracket that opened the first level past each limit asked about. */
  opener: Map<number, string>;
}

/** The nesting of a JSON text, without parsing it: brackets outside strings. */
function jsonNesting(raw: Buffer, limits: number[]): Nesting {
  const opener = new Map<number, string>();
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      depth++;
      if (depth > max) {
        max = depth;
        for (const l of limits) if (depth === l + 1) opener.set(l, String.fromCharCode(c));
      }
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return { depth: max, opener };
}

/** The flow-collection nesting of a YAML text, from the `yaml` library's lexer (which does not recurse). */
function yamlFlowNesting(text: string): number {
  let depth = 0;
  let max = 0;
  for (const token of new Lexer().lex(text)) {
    if (token === '[' || token === '{') max = Math.max(max, ++depth);
    else if (token === ']' || token === '}') depth--;
  }
  return max;
}

/** Refuses a JSON body nested deeper than kube-apiserver or this server accepts, worded as kube-apiserver words it. */
export function checkJsonNesting(raw: Buffer, site: DecodeSite): void {
  if (!mayNestBeyond(raw, SERVER_MAX_DEPTH)) return;
  const n = jsonNesting(raw, [SERVER_MAX_DEPTH, KUBE_MAX_DEPTH]);
  if (n.depth <= SERVER_MAX_DEPTH) return;
  const limit = n.depth > KUBE_MAX_DEPTH ? KUBE_MAX_DEPTH : SERVER_MAX_DEPTH;
  throw tooDeep(site, raw, n.opener.get(limit) ?? '{', limit);
}

/** The same for a YAML body, before the `yaml` library sees it. */
export function checkYamlNesting(raw: Buffer, text: string, site: DecodeSite): void {
  if (!mayNestBeyond(raw, YAML_FLOW_MAX_DEPTH)) return;
  const depth = yamlFlowNesting(text);
  if (depth <= YAML_FLOW_MAX_DEPTH) return;
  const limit = depth > KUBE_MAX_DEPTH ? KUBE_MAX_DEPTH : YAML_FLOW_MAX_DEPTH;
  if (site === 'apply' || limit !== KUBE_MAX_DEPTH) {
    throw errors.badRequest(
      `${site === 'apply' ? 'error decoding YAML: ' : ''}error converting YAML to JSON: yaml: exceeded max depth of ${limit}${ours(limit)}`,
    );
  }
  throw tooDeep(site, raw, '[', limit);
}

/** Cheap bound: a body with no more opening brackets than the limit cannot nest beyond it. */
function mayNestBeyond(raw: Buffer, limit: number): boolean {
  let opens = 0;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if ((c === 0x7b || c === 0x5b) && ++opens > limit) return true;
  }
  return false;
}

/** Said after kube-apiserver's wording when the limit is this server's, not kube-apiserver's. */
function ours(limit: number): string {
  return limit === KUBE_MAX_DEPTH ? '' : ` levels, the most this server handles (kube-apiserver: ${KUBE_MAX_DEPTH})`;
}

function tooDeep(site: DecodeSite, raw: Buffer, opener: string, limit: number): ApiError {
  const cause = `invalid character '${opener}' exceeded max depth${limit === KUBE_MAX_DEPTH ? '' : ` of ${limit}${ours(limit)}`}`;
  if (site === 'patch') return errors.badRequest(`error decoding patch: ${cause}`);
  if (site === 'strategic') return errors.badRequest(cause);
  if (site === 'apply')
    return errors.badRequest(
      `error decoding YAML: error converting YAML to JSON: yaml: exceeded max depth of ${limit}${ours(limit)}`,
    );
  return errors.badRequest(
    `the object provided is unrecognized (must be of type ${site.object}): couldn't get version/kind; json parse error: ${cause} (${summarizeData(raw, 30)})`,
  );
}

/** apiserver's summarizeData (endpoints/handlers/rest.go): the body's start, as text when it looks like JSON, else as hex. */
function summarizeData(data: Buffer, max: number): string {
  if (data.length === 0) return '<empty>';
  const head = data.subarray(0, max);
  const more = data.length > max ? ' ...' : '';
  return data[0] === 0x7b ? head.toString('utf8') + more : head.toString('hex') + more;
}
