/** A problem in a Flow, placed in its file; line and column are 0 when the Flow came from no file. */
export interface ValidationError {
  file: string;
  line: number;
  column: number;
  field: string;
  message: string;
  /** The column is exact (a template's type error): shown as `file:line:column`. */
  columnExact?: boolean;
}

/** `file:line: field: problem`, the shape editors and CI annotations recognise. */
export function formatValidationError(e: ValidationError): string {
  const at = e.columnExact && e.column > 0 ? `${e.line}:${e.column}` : `${e.line}`;
  const where = e.file ? (e.line > 0 ? `${e.file}:${at}: ` : `${e.file}: `) : '';
  return `${where}${e.field ? `${e.field}: ` : ''}${e.message}`;
}

export function compareValidationErrors(a: ValidationError, b: ValidationError): number {
  if (a.file !== b.file) return a.file < b.file ? -1 : 1;
  return a.line - b.line || a.column - b.column || (a.field < b.field ? -1 : a.field > b.field ? 1 : 0);
}

/** Thrown by parseFlow; `errors` keeps every problem so a status condition can list them. */
export class FlowValidationError extends Error {
  override readonly name = 'FlowValidationError';

  constructor(readonly errors: readonly ValidationError[]) {
    const shown = errors.slice(0, 3).map(formatValidationError).join('; ');
    super(`invalid Flow: ${shown}${errors.length > 3 ? ` (and ${errors.length - 3} more)` : ''}`);
  }
}
