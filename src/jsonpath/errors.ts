// The closed list of errors the JSONPath part throws: a path that does not parse, and a write
// (setPath) the target's shape refuses. Callers name where the path came from (a step output, a
// printer column, a pipeline operator) around the message.

export type JsonPathErrorCode = 'InvalidJsonPath' | 'JsonPathNotSettable';

export abstract class JsonPathError extends Error {
  abstract readonly code: JsonPathErrorCode;

  constructor(message: string) {
    super(message);
    this.name = new.target.name;
    Object.setPrototypeOf(this, new.target.prototype);
  }
}

/** The text is not a path of the dialect (ast.ts), or not of the kubectl subset (kubectl.ts). */
export class JsonPathSyntaxError extends JsonPathError {
  readonly code = 'InvalidJsonPath' as const;
}

/** setPath cannot put a value there: indexing into a scalar, `..`, the root. */
export class JsonPathSetError extends JsonPathError {
  readonly code = 'JsonPathNotSettable' as const;
}
