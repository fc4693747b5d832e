import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The Git URL and `<branch>@sha1:<sha>` of the checkout `dir` is in, as Flux's --source/--revision read it. */
export async function gitOrigin(dir: string): Promise<{ source?: string; revision?: string }> {
  const git = async (args: string[]): Promise<string | undefined> => {
    try {
      return (await run('git', ['-C', dir, ...args], { timeout: 10_000 })).stdout.trim() || undefined;
    } catch {
      return undefined;
    }
  };
  const sha = await git(['rev-parse', 'HEAD']);
  const branch = await git(['symbolic-ref', '--short', '-q', 'HEAD']);
  const source = await git(['remote', 'get-url', 'origin']);
  return {
    ...(source ? { source: withoutUserInfo(source) } : {}),
    ...(sha ? { revision: branch ? `${branch}@sha1:${sha}` : `sha1:${sha}` } : {}),
  };
}

/** A remote URL never carries its token into the artifact's annotations. */
function withoutUserInfo(url: string): string {
  return url.replace(/^([a-z+]+:\/\/)[^@/]*@/i, '$1');
}
