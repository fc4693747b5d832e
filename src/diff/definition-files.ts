// The definition files `flowops diff` compares with the cluster, with the paths the GitOps sync
// would give them (the repository path: the FlowSource's spec.path plus the path inside it), so
// provenance annotations and error positions match what a push would produce. From a folder (a
// checkout of the source's path), or from a commit of the Git repository in the current folder,
// exported with `git archive` so that the same file rules apply to both.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import type { DefinitionFile } from '../sync/index.js';
import { findYamlFiles, SetupError } from '../util/index.js';

export interface LocalDefinitions {
  files: DefinitionFile[];
  /** Repository path → the file as the user names it (for error messages). */
  localPath: ReadonlyMap<string, string>;
  /** What the definitions were read from, for diff headers: the folder or `commit <sha>`. */
  origin: string;
  cleanup(): void;
}

const repoPathOf = (prefix: string, rel: string): string => (prefix ? `${prefix}/${rel}` : rel);

/** `dir` holds the source's path (what spec.path names in the repository). */
export function definitionsFromDir(dir: string, prefix: string): LocalDefinitions {
  const found = findYamlFiles([dir]);
  if (found.missing.length) throw new SetupError(`${dir}: ${found.missing[0]!.message}`);
  const files: DefinitionFile[] = [];
  const localPath = new Map<string, string>();
  for (const file of found.files) {
    const path = repoPathOf(prefix, relative(dir, file).split(sep).join('/'));
    files.push({ path, text: readFileSync(file, 'utf8') });
    localPath.set(path, file);
  }
  return { files, localPath, origin: dir, cleanup: () => undefined };
}

/** The source's path at `commit` of the repository in `repoDir` (a commit not yet pushed, typically). */
export function definitionsFromCommit(repoDir: string, commit: string, prefix: string): LocalDefinitions {
  const tmp = mkdtempSync(join(tmpdir(), 'flowops-diff-'));
  try {
    const sha = execFileSync('git', ['-C', repoDir, 'rev-parse', '--verify', `${commit}^{commit}`], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    }).trim();
    const archive = execFileSync('git', ['-C', repoDir, 'archive', '--format=tar', sha, ...(prefix ? [prefix] : [])], {
      maxBuffer: 512 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    execFileSync('tar', ['-x', '-C', tmp], { input: archive });
    const defs = definitionsFromDir(prefix ? join(tmp, prefix) : tmp, prefix);
    // Errors name the file in the commit, as `git show <sha>:<path>` finds it.
    const localPath = new Map([...defs.localPath.keys()].map((p) => [p, `${sha.slice(0, 12)}:${p}`]));
    return {
      files: defs.files,
      localPath,
      origin: `commit ${sha.slice(0, 12)}`,
      cleanup: () => rmSync(tmp, { recursive: true, force: true }),
    };
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true });
    if (e instanceof SetupError) throw e;
    const stderr = (e as { stderr?: Buffer | string }).stderr?.toString().trim();
    throw new SetupError(
      `--commit ${commit}: ${stderr || (e as Error).message} (run flowops diff inside the Git repository of the source)`,
    );
  }
}
