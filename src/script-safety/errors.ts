// The closed list of what the executors' script scanner throws, each with a code (a step's own
// failures are StepErrors, types.ts). Validation puts the message at the script's field.

export type ScriptTemplateErrorCode =
  /** An action opened with "{{" that never closes. */
  | 'UnclosedAction'
  /** A "{{/*" comment that never closes. */
  | 'UnclosedComment';

export class ScriptTemplateError extends Error {
  override readonly name = 'ScriptTemplateError';

  constructor(
    readonly code: ScriptTemplateErrorCode,
    message: string,
  ) {
    super(message);
  }
}
