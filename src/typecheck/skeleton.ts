// A manifest template's YAML structure with every value action replaced by a placeholder, so the
// structure can be parsed and checked against the kind's schema without rendering. An `if` or
// `with` contributes its first branch, a `range` its body once; offsets map back to the template.

import type { Node, Pipeline } from '../template/index.js';

export interface Slot {
  /** Offset of the action in the template. */
  pos: number;
  /** Inserted as YAML text (toYaml/toJson/indent): its structure is not known here. */
  raw: boolean;
}

export interface Skeleton {
  text: string;
  slots: Slot[];
  /** Some branch was left out (an else): a key missing here may be given there. */
  partial: boolean;
  /** Template offset of a skeleton offset. */
  sourceOffset(at: number): number;
}

const RAW = new Set(['toYaml', 'toJson', 'indent', 'nindent']);

function lastCall(pipe: Pipeline): { name: string; width: number | null } | null {
  const cmd = pipe.cmds[pipe.cmds.length - 1];
  const head = cmd?.args[0];
  if (head?.kind !== 'ident') return null;
  const n = cmd?.args[1];
  return { name: head.name, width: head.name === 'nindent' && n?.kind === 'number' ? n.value : null };
}

export function skeletonOf(nodes: readonly Node[]): Skeleton {
  let text = '';
  const slots: Slot[] = [];
  const map: Array<{ at: number; src: number }> = [];
  let partial = false;
  const visit = (list: readonly Node[]): void => {
    for (const n of list) {
      switch (n.kind) {
        case 'text':
          map.push({ at: text.length, src: n.pos });
          text += n.text;
          break;
        case 'action': {
          if (n.pipe.decls.length > 0) break;
          const call = lastCall(n.pipe);
          const raw = call !== null && RAW.has(call.name);
          if (call?.width !== null && call?.width !== undefined) text += `\n${' '.repeat(Math.max(0, call.width))}`;
          map.push({ at: text.length, src: n.pos });
          text += `__ftc_${slots.length}__`;
          slots.push({ pos: n.pos, raw });
          break;
        }
        case 'if':
        case 'with':
          if (n.elseList) partial = true;
          visit(n.list);
          break;
        case 'range':
          visit(n.list);
          break;
        default:
          break;
      }
    }
  };
  visit(nodes);
  return {
    text,
    slots,
    partial,
    sourceOffset(at) {
      let best = { at: 0, src: 0 };
      for (const m of map) {
        if (m.at > at) break;
        best = m;
      }
      return best.src + (at - best.at);
    },
  };
}
