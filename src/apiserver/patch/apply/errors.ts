export interface ApplyConflict {
  /** Manager name as stored in managedFields. */
  readonly manager: string;
  /** Path in structured-merge-diff form: `.spec.size`, `.spec.containers[name="nginx"].image`. */
  readonly field: string;
  /** The Status cause message: `conflict with "kubectl-patch" using example.com/v1`. */
  readonly message: string;
}

/**
 * Another manager owns fields this apply would change. The API server answers
 * 409 Conflict with `message` and one FieldManagerConflict cause per conflict.
 */
export class ApplyConflictError extends Error {
  readonly conflicts: readonly ApplyConflict[];

  constructor(message: string, conflicts: readonly ApplyConflict[]) {
    super(message);
    this.name = 'ApplyConflictError';
    this.conflicts = conflicts;
  }
}

/** The apply configuration itself is unusable (→ 400 BadRequest). */
export class InvalidApplyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidApplyError';
  }
}

/** `metadata.managedFields` sent by a client does not have the managedFields shape (→ 400/422). */
export class ManagedFieldsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ManagedFieldsError';
  }
}
