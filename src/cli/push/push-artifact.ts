import { existsSync, statSync } from 'node:fs';
import { SourceError, localCredentials, readTree, pushArtifact, parseOciUrl } from '../../source/index.js';
import { gitOrigin } from './git-origin.js';
import { CommandFailedError, SetupError } from '../../util/setup-error.js';

/** Credentials come from the docker config ($DOCKER_CONFIG/config.json or ~/.docker/config.json). */
export async function runPushArtifact(
  dir: string,
  url: string,
  flags: { source?: string; revision?: string; insecure?: boolean },
): Promise<void> {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new SetupError(`${dir}: not a folder`);
  try {
    const ref = parseOciUrl(url, 'the artifact URL');
    const git = await gitOrigin(dir);
    const source = flags.source ?? git.source;
    const revision = flags.revision ?? git.revision;
    if (!source || !revision) {
      throw new SetupError(
        `${dir} is not in a Git checkout with an origin remote: give --source <url> and --revision <branch>@sha1:<sha>`,
      );
    }
    const files = readTree(dir);
    const out = await pushArtifact({
      ref,
      files,
      source,
      revision,
      credentials: localCredentials(ref.registry),
      insecure: flags.insecure,
    });
    process.stdout.write(`pushed ${out.url}@${out.digest} (${files.length} files from ${revision})\n`);
  } catch (e) {
    if (e instanceof SourceError) throw new CommandFailedError(`${e.code}: ${e.message}`);
    throw e;
  }
}
