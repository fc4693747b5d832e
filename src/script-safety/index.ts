// The face of src/script-safety/: how a script step's text is made safe before an interpreter
// reads it. Template actions are found where bash or python would take their value as code or as
// a variable name (script-check.ts), and rewritten to variable references (bash-rewrite.ts,
// python-rewrite.ts). It depends on nothing else in FlowOps: validation (src/api) reports the same
// findings offline that the script executor (src/executors) enforces at run time.

// faces:begin (scripts/faces.ts writes this block: what other parts import from this one)
export { isArithmeticSafe } from './bash-rewrite.js';
export { checkScript, controlMessage, unsafeScriptPositions, type TaintedArithmetic } from './script-check.js';
export { findInterpreter, type Interpreter } from './script-interpreter.js';
export { positionOf, splitActionsWithSpans, type TemplatePart } from './template-actions.js';
// faces:end
