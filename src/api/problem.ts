/**
 * One problem found in a Flow, before it has a file position: the path of the offending field as
 * data (so a YAML document can be searched for it) and, for template errors, where inside the
 * field's string the problem is.
 */

export type FieldPath = ReadonlyArray<string | number>;

export interface FieldProblem {
  path: FieldPath;
  message: string;
  /** 1-based line/column inside the field's string value. */
  inner?: { line: number; column: number };
}

/** `spec.reconcile.steps[0].type`: the way kubectl and the API server name fields. */
export function formatPath(path: FieldPath): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else if (/^[A-Za-z_$][\w$-]*$/.test(seg)) out += out ? `.${seg}` : seg;
    else out += `[${JSON.stringify(seg)}]`;
  }
  return out;
}
