// The one JSONPath of FlowOps: the pipeline dialect (ohler55/ojg's, as Δ-controller pipelines use
// it) parsed into steps, one evaluator over them, writes through setPath, and kubectl's way of
// writing a single path (printer columns, step outputs, wait conditions) read into the same steps.
export type { CompareOp, FilterExpr, JsonPath, Step } from './ast.js';
export { JsonPathError, JsonPathSetError, JsonPathSyntaxError, type JsonPathErrorCode } from './errors.js';
export { filterMatches, getAll, getFirst, type MapOrder } from './get.js';
export { evalKubectlPath, parseKubectlPath } from './kubectl.js';
export { parseJsonPath, parseJsonPathCached } from './parse.js';
export { setPath } from './set.js';
