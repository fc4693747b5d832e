// Public surface of the Δ-controller pipeline language: expressions, stages, and a delta engine
// that turns source watch events into target changes. Pure code: no I/O, no Kubernetes calls.

import { parseExpression, evaluate as evalExpr, rootCtx, type EvalOptions } from './expressions/index.js';
import { deepClone } from '../util/json-value.js';

export { compilePipeline, type CompileOptions, type CompiledPipeline } from './engine/compile.js';
export type { InputEvent, InputEventType, OutputEvent, OutputEventType, SourceFilter } from './engine/events.js';
export type { TargetKind } from './engine/target.js';
export type { EvalOptions } from './expressions/index.js';
export {
  PipelineError,
  PipelineParseError,
  ExpressionError,
  EventError,
  OutputError,
  type PipelineErrorCode,
  type PipelineErrorData,
} from './errors.js';

/**
 * Evaluates one expression (parsed from JSON/YAML data) against `object`, which is `$`.
 * Throws a PipelineError naming the failing operator and its position, e.g.
 * `@lt at expression.@and[1]: expected numeric arguments, got null`.
 * The result is a copy: it never shares structure with `object`.
 */
export function evaluate(expression: unknown, object: unknown, opts: EvalOptions = {}): unknown {
  return deepClone(evalExpr(parseExpression(expression, 'expression'), rootCtx(object, opts)));
}
