// The import cycles that run at load time: strongly connected components (Tarjan's algorithm) of
// the graph of value imports between files. Type-only and dynamic imports are left out: they are
// erased or loaded later, so they fix no evaluation order. Small enough not to need a library.
import type { Graph } from './graph.js';

/** Each cycle as its files, sorted; files in no cycle are not listed. */
export function runtimeCycles(graph: Graph): string[][] {
  const edges = new Map<string, string[]>();
  for (const [file, m] of graph.modules)
    edges.set(
      file,
      m.imports.filter((s) => s.to !== undefined && s.kind !== 'dynamic' && !s.typeOnly).map((s) => s.to as string),
    );
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!edges.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) ?? 0, low.get(w) ?? 0));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) ?? 0, index.get(w) ?? 0));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    for (let w = stack.pop(); w !== undefined; w = stack.pop()) {
      onStack.delete(w);
      component.push(w);
      if (w === v) break;
    }
    if (component.length > 1) cycles.push(component.sort());
  };
  for (const v of edges.keys()) if (!index.has(v)) visit(v);
  return cycles;
}
