// An object's children as a graph, left to right by depth, each node coloured by its health and
// linked to its page (Argo CD's resource tree is the model). The indented list stays beside it as
// the accessible form; the graph is for owners with many children, where a list is hard to scan.
import type { ChildNode, HealthStatus, ObjectKey } from '../../../src/ui-server/types.ts';
import { paths } from '../router.ts';

/** Children shown per owner; the rest are one "+N more" node (the list below has them all). */
const MAX_PER_OWNER = 40;
const NODE_W = 220;
const NODE_H = 40;
const COL_GAP = 60;
const ROW_GAP = 10;
const MAX_LABEL = 26;

interface Placed {
  id: string;
  key?: ObjectKey;
  label: string;
  kind: string;
  health: HealthStatus | 'More';
  message: string;
  col: number;
  row: number;
  parent?: string;
}

const clip = (s: string, n: number): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** Rows by depth-first order: each leaf takes the next row, an owner sits at its first child's row. */
function place(root: Placed, children: ChildNode[]): Placed[] {
  const out: Placed[] = [root];
  let nextRow = 0;
  const walk = (parent: Placed, nodes: ChildNode[], col: number): number => {
    const firstRow = nextRow;
    const shown = nodes.slice(0, MAX_PER_OWNER);
    shown.forEach((c, i) => {
      const id = `${parent.id}/${i}`;
      const { key, health, message } = c;
      const p: Placed = { id, key, label: key.name, kind: key.kind, health, message, col, row: 0, parent: parent.id };
      out.push(p);
      p.row = c.children.length ? walk(p, c.children, col + 1) : nextRow++;
    });
    if (nodes.length > shown.length) {
      const more = nodes.length - shown.length;
      const message = `${more} more in the list below`;
      const id = `${parent.id}/more`;
      const label = `+${more} more`;
      out.push({ id, label, kind: '', health: 'More', message, col, row: nextRow++, parent: parent.id });
    }
    return nodes.length ? firstRow : nextRow++;
  };
  root.row = walk(root, children, 1);
  return out;
}

export const graphSize = (children: ChildNode[]): number => children.reduce((n, c) => n + 1 + graphSize(c.children), 0);

export function ChildGraph({
  root,
  children,
}: {
  root: { key: ObjectKey; health: HealthStatus };
  children: ChildNode[];
}) {
  const { key, health } = root;
  const top: Placed = { id: 'root', key, label: key.name, kind: key.kind, health, message: '', col: 0, row: 0 };
  const nodes = place(top, children);
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const x = (n: Placed): number => n.col * (NODE_W + COL_GAP);
  const y = (n: Placed): number => n.row * (NODE_H + ROW_GAP);
  const width = Math.max(...nodes.map(x)) + NODE_W + 2;
  const height = Math.max(...nodes.map(y)) + NODE_H + 2;
  const counts = new Map<string, number>();
  for (const n of nodes.slice(1)) counts.set(n.health, (counts.get(n.health) ?? 0) + 1);
  const summary = [...counts].map(([h, c]) => `${c} ${h}`).join(', ');
  return (
    <div class="graph-scroll" data-child-graph={nodes.length - 1}>
      <svg
        class="child-graph"
        width={width}
        height={height}
        viewBox={`-1 -1 ${width} ${height}`}
        role="group"
        aria-label={`${root.key.kind} ${root.key.name} and its children: ${summary}`}
      >
        {nodes.map((n) => {
          const p = n.parent ? byId.get(n.parent) : undefined;
          if (!p) return null;
          const x1 = x(p) + NODE_W;
          const y1 = y(p) + NODE_H / 2;
          const x2 = x(n);
          const y2 = y(n) + NODE_H / 2;
          const mid = (x1 + x2) / 2;
          return <path key={`e${n.id}`} class="edge" d={`M${x1},${y1} C${mid},${y1} ${mid},${y2} ${x2},${y2}`} />;
        })}
        {nodes.map((n) => {
          const box = (
            <g
              transform={`translate(${x(n)},${y(n)})`}
              class={`node ${n.health}`}
              data-graph-node={n.key ? `${n.kind}/${n.label}` : 'more'}
              data-health={n.health}
            >
              <title>{`${n.kind} ${n.label}: ${n.health}${n.message ? ` — ${clip(n.message, 300)}` : ''}`}</title>
              <rect width={NODE_W} height={NODE_H} rx={6} />
              <rect class="bar" width={6} height={NODE_H} rx={3} />
              <text x={14} y={16} class="kind">
                {clip(n.kind, MAX_LABEL + 8)}
              </text>
              <text x={14} y={32} class="name">
                {clip(n.label, MAX_LABEL)}
              </text>
            </g>
          );
          return n.key && n.health !== 'Missing' && n.id !== 'root' ? (
            <a key={n.id} href={paths.best(n.key)}>
              {box}
            </a>
          ) : (
            <g key={n.id}>{box}</g>
          );
        })}
      </svg>
    </div>
  );
}
