// Errors carry the caller's template name plus a 1-based line/column so that a Flow author can
// find the action inside a multi-line YAML field. `detail` is the bare problem; `message` adds
// the location in one line that reads well in logs and in status conditions.

export interface SourcePosition {
  readonly line: number;
  readonly column: number;
}

/** Maps character offsets to line/column once per source instead of rescanning on every error. */
export class LineIndex {
  private readonly starts: number[] = [0];

  constructor(src: string) {
    for (let i = 0; i < src.length; i++) if (src.charCodeAt(i) === 10) this.starts.push(i + 1);
  }

  position(offset: number): SourcePosition {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((this.starts[mid] ?? 0) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - (this.starts[lo] ?? 0) + 1 };
  }
}

function formatMessage(templateName: string, pos: SourcePosition, detail: string): string {
  return `template "${templateName}": ${detail} (line ${pos.line}, column ${pos.column})`;
}

/** The closed list of what the template part throws, each with its code. */
export type TemplateErrorCode = 'TemplateParse' | 'TemplateRender' | 'FunctionFailed' | 'InvalidFunction';

abstract class TemplateError extends Error {
  abstract readonly code: TemplateErrorCode;
  readonly templateName: string;
  readonly line: number;
  readonly column: number;
  readonly detail: string;

  constructor(templateName: string, pos: SourcePosition, detail: string, options?: { cause?: unknown }) {
    super(formatMessage(templateName, pos, detail), options);
    this.templateName = templateName;
    this.line = pos.line;
    this.column = pos.column;
    this.detail = detail;
  }
}

export class TemplateParseError extends TemplateError {
  override readonly name = 'TemplateParseError';
  readonly code = 'TemplateParse' as const;
}

export class TemplateRenderError extends TemplateError {
  override readonly name = 'TemplateRenderError';
  readonly code = 'TemplateRender' as const;
}

/**
 * Thrown inside the lexer/parser/evaluator with only an offset; the public entry points turn it
 * into a TemplateParseError/TemplateRenderError once they know the name and line table.
 */
export class PositionedError extends Error {
  constructor(
    readonly offset: number,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/**
 * A function may throw this to have its message shown verbatim (for `required` and `fail`,
 * whose message is the author's); any other error from a function gets "error calling f:".
 */
export class FunctionError extends Error {
  readonly code = 'FunctionFailed' as const;
}

/** A function failed in Go's words (`index out of range: 3`); the evaluator adds "error calling f:". */
export class FunctionCallError extends Error {
  readonly code = 'FunctionFailed' as const;
}

/** A custom function cannot be registered under that name (not an identifier, or a builtin's). */
export class InvalidFunctionError extends Error {
  readonly code = 'InvalidFunction' as const;
}

/** Gives a parser/lexer error its template name and line/column; other errors pass through. */
export function asParseError(err: unknown, src: string, templateName: string): unknown {
  if (!(err instanceof PositionedError)) return err;
  return new TemplateParseError(templateName, new LineIndex(src).position(err.offset), err.message, { cause: err });
}
