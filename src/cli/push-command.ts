import type { Command } from 'commander';
import { summaryOf } from './command-table.js';

// `flowops push artifact DIR oci://registry/repository:tag`: the definitions of a folder as an OCI
// artifact with Flux's media types, which a FlowSource with spec.oci (or Flux's OCIRepository)
// follows. The implementation loads only when the command runs.
export function registerPushCommand(program: Command): void {
  const push = program.command('push').description(summaryOf('push'));
  push
    .command('artifact')
    .description('pack DIR (without .git) as an OCI artifact and push it under the tag; prints the digest')
    .argument('<dir>', 'folder of definitions')
    .argument('<url>', 'oci://registry[:port]/repository:tag')
    .option('--source <url>', "Git URL it came from (default: the origin remote of DIR's checkout)")
    .option('--revision <rev>', "Git revision it came from, <branch>@sha1:<sha> (default: DIR's checkout HEAD)")
    .option('--insecure', 'plain HTTP to the registry (a registry on loopback)')
    .action(async (dir: string, url: string, flags: { source?: string; revision?: string; insecure?: boolean }) => {
      const { runPushArtifact } = await import('./push/push-artifact.js');
      await runPushArtifact(dir, url, flags);
    });
}
