// The closed list of errors the operator part throws, each with a code, as the pipeline's are
// (../pipeline/errors.ts). An Operator's controller puts the message into its status; the code says
// which of its inputs was wrong.

export type OperatorErrorCode =
  /** The Operator file cannot be read as Operators (YAML errors, no Operator, no name). */
  | 'InvalidFile'
  /** A controller's spec is incomplete or wrong (sources, target, type). */
  | 'InvalidController'
  /** A source's predicate is not one FlowOps knows. */
  | 'InvalidPredicate'
  /** A kind's API group or version is not served by the cluster. */
  | 'UnresolvedResource'
  /** The Operator was refused before it ran (its source's checks said no). */
  | 'Refused'
  /** A Patcher target names an object that does not exist: Patchers never create. */
  | 'PatcherTargetMissing';

export class OperatorError extends Error {
  constructor(
    readonly code: OperatorErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'OperatorError';
  }
}
