import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import {
  compareValidationErrors,
  formatValidationError,
  validateParsedFlowFile,
  type ValidationError,
} from '../api/index.js';
import {
  mayHoldOperator,
  schemaRegistryOf,
  typecheckFile,
  type SourceFile,
  type TypeFinding,
} from '../typecheck/index.js';

/**
 * `flowops validate PATH...`: the check a CI job or a pre-commit hook runs on a repository of
 * Flows before anything reaches a cluster. Errors go to stderr as `file:line: field: problem`,
 * sorted, so editors and CI annotate the right line; the exit code says whether any were found.
 * Files whose Flows are well-formed are then type-checked (templates and manifests against the
 * schemas of the CRDs among the given paths and of the built-in kinds), as are Operators' pipeline
 * expressions: its errors count, its
 * warnings are printed but leave the exit code 0.
 */

const YAML_FILE = /\.ya?ml$/i;

function problem(file: string, message: string): ValidationError {
  return { file, line: 0, column: 0, field: '', message };
}

/** Files named on the command line are read whatever their extension; directories give their YAML. */
function collect(path: string, files: string[], errors: ValidationError[]): void {
  let isDir: boolean;
  try {
    isDir = statSync(path).isDirectory();
  } catch (e) {
    errors.push(
      problem(
        path,
        (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file or directory' : (e as Error).message,
      ),
    );
    return;
  }
  if (!isDir) {
    files.push(path);
    return;
  }
  // Hidden folders (.git, .flowops) and node_modules hold no Flows of the user's.
  for (const entry of readdirSync(path, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
    const child = join(path, entry.name);
    if (entry.isDirectory()) collect(child, files, errors);
    else if (entry.isFile() && YAML_FILE.test(entry.name)) files.push(child);
  }
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

export interface ValidateOutput {
  stdout(text: string): void;
  stderr(text: string): void;
}

/** Validates the given paths and returns the exit code. */
export function runValidate(paths: readonly string[], out: ValidateOutput): number {
  const files: string[] = [];
  const errors: ValidationError[] = [];
  for (const p of paths) collect(p, files, errors);
  const unique = [...new Set(files)];
  let flows = 0;
  const read: SourceFile[] = [];
  for (const file of unique) {
    try {
      read.push({ path: file, text: readFileSync(file, 'utf8') });
    } catch (e) {
      errors.push(problem(file, (e as Error).message));
    }
  }
  const registry = schemaRegistryOf(read);
  const typed: TypeFinding[] = [];
  for (const source of read) {
    const result = validateParsedFlowFile(source.text, source.path);
    flows += result.flows;
    errors.push(...result.errors);
    if ((result.flows > 0 || mayHoldOperator(source.text)) && result.errors.length === 0) {
      typed.push(...typecheckFile({ ...source, parsed: result.parsed }, registry));
    }
  }
  for (const e of [...errors, ...typed].sort(compareValidationErrors)) out.stderr(`${formatValidationError(e)}\n`);
  const typeErrors = typed.filter((f) => f.severity === 'error').length;
  const warnings = typed.length - typeErrors;
  const total = errors.length + typeErrors;
  const counts = `${plural(unique.length, 'file')}, ${plural(flows, 'Flow')}, ${plural(total, 'error')}`;
  out.stdout(`${counts}${warnings ? `, ${plural(warnings, 'warning')}` : ''}\n`);
  return total ? 1 : 0;
}
