// The operations a FlowOps test checks requests against, cut out of a forge's whole OpenAPI 3
// description with every component they reach (followed transitively), so that the vendored
// document stays small and says only what the tests rely on.

type Json = Record<string, unknown>;

export interface OpenApi3 {
  paths: Record<string, Json>;
  components: Record<string, Json>;
  info: Json;
}

/** path → methods; a path's shared `parameters` come along. */
export function cutOperations(doc: OpenApi3, operations: Record<string, string[]>, what: string): OpenApi3 {
  const paths: Record<string, Json> = {};
  for (const [path, methods] of Object.entries(operations)) {
    const item = doc.paths[path];
    if (!item) throw new Error(`${what} has no ${path}`);
    const picked = methods.map((m) => {
      if (!item[m]) throw new Error(`${what} has no ${m.toUpperCase()} ${path}`);
      return [m, item[m]] as const;
    });
    const shared = item.parameters ? [['parameters', item.parameters] as const] : [];
    paths[path] = Object.fromEntries([...picked, ...shared]);
  }
  const components: Record<string, Json> = {};
  for (const [section, names] of reachable(doc, paths))
    components[section] = Object.fromEntries([...names].sort().map((n) => [n, doc.components[section]?.[n]]));
  return { info: doc.info, paths, components };
}

function reachable(doc: OpenApi3, root: unknown): Map<string, Set<string>> {
  const found = new Map<string, Set<string>>();
  const queue: unknown[] = [root];
  while (queue.length) {
    const node = queue.pop();
    if (Array.isArray(node)) queue.push(...node);
    else if (node && typeof node === 'object') {
      for (const [k, v] of Object.entries(node)) {
        if (k === '$ref' && typeof v === 'string') {
          const m = /^#\/components\/([^/]+)\/(.+)$/.exec(v);
          if (!m) continue;
          const [, section = '', name = ''] = m;
          const names = found.get(section) ?? new Set<string>();
          found.set(section, names);
          if (names.has(name)) continue;
          names.add(name);
          queue.push(doc.components[section]?.[name]);
        } else queue.push(v);
      }
    }
  }
  return found;
}
