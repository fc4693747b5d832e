import { isMap, isScalar, isSeq, type Document, type LineCounter, type Scalar } from 'yaml';
import type { FieldProblem } from './problem.js';

/**
 * Finds where in a YAML file a field path points. A field that is missing is reported at the
 * deepest part of its path that exists (a missing `spec.watch` at `spec:`); a problem inside a
 * templated string is placed on the exact line of the multi-line value it is in.
 */

export interface Position {
  line: number;
  column: number;
}

export class YamlLocator {
  private lines: string[] | undefined;

  constructor(
    private readonly text: string,
    private readonly counter: LineCounter,
  ) {}

  private at(offset: number): Position {
    const { line, col } = this.counter.linePos(offset);
    return { line, column: col };
  }

  locate(doc: Document, problem: FieldProblem): Position {
    const root = doc.contents;
    let pos = this.at(root?.range?.[0] ?? 0);
    let node: unknown = root;
    for (const seg of problem.path) {
      if (isMap(node)) {
        const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === String(seg));
        if (!pair || !isScalar(pair.key) || !pair.key.range) return pos;
        pos = this.at(pair.key.range[0]);
        node = pair.value;
      } else if (isSeq(node) && typeof seg === 'number') {
        const item: unknown = node.items[seg];
        if (!isMap(item) && !isSeq(item) && !isScalar(item)) return pos;
        if (item.range) pos = this.at(item.range[0]);
        node = item;
      } else {
        return pos;
      }
    }
    if (problem.inner && isScalar(node)) return this.inside(node, problem.inner) ?? pos;
    return pos;
  }

  /** Maps a line/column inside a scalar's value to the file, where the scalar's style allows it. */
  private inside(node: Scalar, inner: Position): Position | undefined {
    if (!node.range) return undefined;
    const start = this.at(node.range[0]);
    if (node.type === 'BLOCK_LITERAL') {
      // The value starts on the line after the `|` header, at the block's indentation.
      return { line: start.line + inner.line, column: this.blockIndent(start.line) + inner.column };
    }
    const oneLine = this.at(node.range[1]).line === start.line;
    if (
      oneLine &&
      inner.line === 1 &&
      (node.type === 'PLAIN' || node.type === 'QUOTE_DOUBLE' || node.type === 'QUOTE_SINGLE')
    ) {
      return { line: start.line, column: start.column + (node.type === 'PLAIN' ? 0 : 1) + inner.column - 1 };
    }
    // Folded and multi-line flow scalars join lines, so only the value's first line is certain.
    return node.type === 'BLOCK_FOLDED' ? { line: start.line + 1, column: this.blockIndent(start.line) + 1 } : start;
  }

  /** Indentation of a block scalar: that of its first non-blank line after the header line. */
  private blockIndent(headerLine: number): number {
    this.lines ??= this.text.split('\n');
    for (let i = headerLine; i < this.lines.length; i++) {
      const line = this.lines[i] ?? '';
      if (line.trim() !== '') return line.length - line.trimStart().length;
    }
    return 0;
  }
}
