// The tree mirrors Go's text/template/parse nodes, trimmed to the subset FlowOps evaluates.
// Every node keeps `pos` (offset into the source) so execution errors can point at it.

export type Expr =
  | { kind: 'field'; pos: number; path: string[]; text: string }
  | { kind: 'variable'; pos: number; name: string; path: string[]; text: string }
  | { kind: 'chain'; pos: number; base: Expr; path: string[]; text: string }
  | { kind: 'dot'; pos: number }
  | { kind: 'ident'; pos: number; name: string }
  | { kind: 'string'; pos: number; value: string }
  | { kind: 'number'; pos: number; value: number }
  | { kind: 'bool'; pos: number; value: boolean }
  | { kind: 'nil'; pos: number }
  | { kind: 'pipe'; pos: number; pipe: Pipeline };

export interface Command {
  pos: number;
  args: Expr[];
}

export interface Pipeline {
  pos: number;
  /** Variables declared (`:=`) or assigned (`=`) by this pipeline; two only in `range`. */
  decls: string[];
  isAssign: boolean;
  cmds: Command[];
}

export type Node =
  | { kind: 'text'; pos: number; text: string }
  | { kind: 'action'; pos: number; pipe: Pipeline }
  | { kind: 'if' | 'with' | 'range'; pos: number; pipe: Pipeline; list: Node[]; elseList: Node[] | null }
  | { kind: 'break' | 'continue'; pos: number };

export type ControlNode = Extract<Node, { kind: 'if' | 'with' | 'range' }>;
