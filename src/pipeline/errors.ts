// The closed list of errors the pipeline part throws. Every error names the operator (or stage)
// that failed and where it sits, so a controller can put one readable line into its status.

export type PipelineErrorCode = 'InvalidPipeline' | 'EvaluationFailed' | 'InvalidEvent' | 'InvalidOutput';

export interface PipelineErrorData {
  /** The operator or stage that failed, e.g. `@lt`, `@unwind`, `@project`, `event`. */
  op: string;
  /** Where it sits: `pipeline[1].@select.@and[0]`, `expression.@eq`, or an object key. */
  path: string;
  /** The message without the `op at path:` prefix. */
  detail: string;
}

export abstract class PipelineError extends Error {
  abstract readonly code: PipelineErrorCode;
  readonly data: PipelineErrorData;

  constructor(op: string, path: string, detail: string) {
    super(path === '' ? `${op}: ${detail}` : `${op} at ${path}: ${detail}`);
    this.data = { op, path, detail };
    this.name = new.target.name;
    Object.setPrototypeOf(this, new.target.prototype);
  }

  get op(): string {
    return this.data.op;
  }

  get path(): string {
    return this.data.path;
  }

  toJSON(): { name: string; code: PipelineErrorCode; message: string; data: PipelineErrorData } {
    return { name: this.name, code: this.code, message: this.message, data: this.data };
  }
}

/** The pipeline or an expression in it cannot be built (parse-time errors of spec §4.5). */
export class PipelineParseError extends PipelineError {
  readonly code = 'InvalidPipeline' as const;
}

/** An expression or a stage failed while processing a document. */
export class ExpressionError extends PipelineError {
  readonly code = 'EvaluationFailed' as const;
}

/** The event itself is unusable: unknown kind, unknown type, delete of an unseen object. */
export class EventError extends PipelineError {
  readonly code = 'InvalidEvent' as const;
}

/** A document leaving the pipeline is not a valid object (no metadata.name, ...). */
export class OutputError extends PipelineError {
  readonly code = 'InvalidOutput' as const;
}
