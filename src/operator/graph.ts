import type { OperatorDoc } from './load.js';
import { controllersOf, isViewGroup, viewGroup, type ResourceSpec } from './types.js';

interface Node {
  id: string;
  label: string;
  view: boolean;
}

function resourceNode(operator: string, r: Partial<ResourceSpec>): Node {
  const kind = r.kind ?? '?';
  if (r.apiGroup === undefined || r.apiGroup === null || isViewGroup(r.apiGroup)) {
    const group = r.apiGroup ?? viewGroup(operator);
    const owner = group.slice(0, -'.view.dcontroller.io'.length);
    return {
      id: safeId(`view_${group}_${kind}`),
      label: `view ${kind}${owner === operator ? '' : ` (${owner})`}`,
      view: true,
    };
  }
  const group = r.apiGroup === '' ? 'core' : r.apiGroup;
  return { id: safeId(`res_${group}_${kind}`), label: `${kind} (${group})`, view: false };
}

const safeId = (s: string): string => s.replace(/[^A-Za-z0-9_]/g, '_');
const quote = (s: string): string => s.replace(/"/g, '#quot;');

/**
 * A Mermaid flowchart of Operators: one box per controller, native resources as cylinders, views
 * as rounded boxes, edges from sources to controllers and from controllers to targets (labelled
 * with the target type). Views shared between controllers show how they are chained.
 */
export function operatorGraph(operators: OperatorDoc[]): string {
  const lines = ['flowchart LR'];
  const nodes = new Map<string, Node>();
  const edges: string[] = [];
  for (const op of operators) {
    const name = op.metadata.name;
    lines.push(`  subgraph ${safeId(`op_${name}`)}["Operator ${quote(name)}"]`);
    for (const [i, c] of controllersOf(op.spec).entries()) {
      const cid = safeId(`ctl_${name}_${i}`);
      lines.push(`    ${cid}[["${quote(typeof c.name === 'string' ? c.name : `controller ${i}`)}"]]`);
      for (const s of Array.isArray(c.sources) ? c.sources : []) {
        const n = resourceNode(name, s);
        nodes.set(n.id, n);
        const type = s.type === 'OneShot' || s.type === 'Periodic' ? `|${s.type}|` : '';
        edges.push(`  ${n.id} -->${type} ${cid}`);
      }
      if (c.target && typeof c.target === 'object') {
        const n = resourceNode(name, c.target);
        nodes.set(n.id, n);
        edges.push(`  ${cid} -->|${c.target.type === 'Patcher' ? 'Patcher' : 'Updater'}| ${n.id}`);
      }
    }
    lines.push('  end');
  }
  for (const n of nodes.values())
    lines.push(n.view ? `  ${n.id}("${quote(n.label)}")` : `  ${n.id}[("${quote(n.label)}")]`);
  lines.push(...edges);
  return `${lines.join('\n')}\n`;
}
