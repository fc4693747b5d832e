import type { Command } from 'commander';
import type { FlowSourceStatus } from '../api/index.js';
import type { KubeClient, KubeObject, ObjectRef } from '../kube/index.js';
import { isFullSha, shaOfRevision } from '../source/revision.js';
import { loadSource } from './source-arg.js';
import { summaryOf } from './command-table.js';
import { CommandFailedError, NotFoundError, SetupError } from '../util/setup-error.js';

/**
 * A short sha is expanded against the commits the source has synced; anything else must be a
 * full sha (the controller deepens its clone to find an older commit).
 */
export function resolveSha(given: string, status: FlowSourceStatus): string {
  const sha = given.toLowerCase();
  if (isFullSha(sha)) return sha;
  if (!/^[0-9a-f]{4,39}$/.test(sha)) throw new SetupError(`"${given}" is not a commit sha`);
  const known = [
    ...new Set(
      (status.history ?? []).map((h) => shaOfRevision(h.revision)).filter((s): s is string => !!s && s.startsWith(sha)),
    ),
  ];
  if (known.length === 1) return known[0]!;
  if (known.length) throw new CommandFailedError(`"${given}" is ambiguous: ${known.join(', ')}`);
  // Not in the history the status keeps: as kubectl's NotFound, exit 1.
  throw new NotFoundError(`"${given}" is not in this source's history; give the full 40-character sha`);
}

/** A digest, or the start of one (with or without sha256:) among the artifacts the source has synced. */
export function resolveDigest(given: string, status: FlowSourceStatus): string {
  const hex = given.toLowerCase().replace(/^sha256:/, '');
  if (/^[0-9a-f]{64}$/.test(hex)) return `sha256:${hex}`;
  if (!/^[0-9a-f]{4,63}$/.test(hex)) throw new SetupError(`"${given}" is not an artifact digest (sha256:<hex>)`);
  const digests = (status.history ?? []).map((h) => /sha256:([0-9a-f]{64})$/.exec(h.revision)?.[1]);
  const known = [...new Set(digests.filter((d): d is string => !!d && d.startsWith(hex)))];
  if (known.length === 1 && known[0]) return `sha256:${known[0]}`;
  if (known.length) throw new CommandFailedError(`"${given}" is ambiguous: ${known.join(', ')}`);
  throw new NotFoundError(`"${given}" is not in this source's history; give the full sha256 digest`);
}

/** Until the controller has synced the new spec (its generation) — the pinned commit, or the branch tip after --unpin. */
async function waitSynced(
  kube: KubeClient,
  ref: ObjectRef,
  generation: number,
  sha: string | undefined,
  timeoutMs: number,
): Promise<FlowSourceStatus> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const s = ((await kube.get(ref))?.status ?? {}) as FlowSourceStatus;
    const h = s.history?.[0];
    if (h && (s.observedGeneration ?? 0) >= generation && (!sha || h.revision.endsWith(sha))) return s;
    if (Date.now() > deadline)
      throw new CommandFailedError(`timed out waiting for the controller to sync ${sha ?? 'the branch'}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** `flowops rollback <source> --to <sha>` pins spec.ref.commit; `--unpin` returns to the branch. Both are ordinary spec changes the controller syncs. */
export function registerRollbackCommand(program: Command): void {
  program
    .command('rollback')
    .description(summaryOf('rollback'))
    .argument('<source>', 'FlowSource as [namespace/]name')
    .option('--to <sha>', 'commit to apply and stay on (for an OCI source: the artifact digest)')
    .option('--unpin', 'follow the branch (an OCI source: its tag or semver range) again')
    .option('--wait', 'wait until the commit is synced and print the outcome')
    .option('--timeout <seconds>', 'with --wait', '60')
    .option('--kubeconfig <file>', 'kubeconfig to use (default: KUBECONFIG or ~/.kube/config)')
    .action(
      async (
        arg: string,
        flags: { to?: string; unpin?: boolean; wait?: boolean; timeout: string; kubeconfig?: string },
      ) => {
        if (!!flags.to === !!flags.unpin) throw new SetupError('give exactly one of --to <sha> or --unpin');
        const { kube, ref, source } = await loadSource(arg, flags.kubeconfig);
        const status = (source.status ?? {}) as FlowSourceStatus;
        if ((source.spec as { oci?: unknown } | undefined)?.oci) {
          const digest = flags.to ? resolveDigest(flags.to, status) : undefined;
          const updated = await kube.patch(ref, { spec: { oci: { ref: { digest: digest ?? null } } } }, 'merge');
          const name = `${ref.namespace}/${ref.name}`;
          process.stdout.write(digest ? `${name} pinned to ${digest}\n` : `${name} unpinned\n`);
          const hex = digest?.slice('sha256:'.length);
          if (flags.wait) await report(kube, ref, updated.metadata.generation ?? 0, hex, Number(flags.timeout) * 1000);
          return;
        }
        const sha = flags.to ? resolveSha(flags.to, status) : undefined;
        const updated: KubeObject = await kube.patch(ref, { spec: { ref: { commit: sha ?? null } } }, 'merge');
        const name = `${ref.namespace}/${ref.name}`;
        const branch = (updated.spec as { ref?: { branch?: string; tag?: string } }).ref;
        process.stdout.write(
          sha
            ? `${name} pinned to ${sha}\n`
            : `${name} unpinned: following ${branch?.tag ? `tag ${branch.tag}` : `branch ${branch?.branch ?? 'main'}`}\n`,
        );
        if (flags.wait) await report(kube, ref, updated.metadata.generation ?? 0, sha, Number(flags.timeout) * 1000);
      },
    );
}

/** --wait: the outcome of the synced revision; exit code 1 unless it was applied. */
async function report(
  kube: KubeClient,
  ref: ObjectRef,
  generation: number,
  revision: string | undefined,
  timeoutMs: number,
): Promise<void> {
  const h = (await waitSynced(kube, ref, generation, revision, timeoutMs)).history?.[0];
  if (!h) return;
  process.stdout.write(`${h.outcome}: ${h.revision}${h.message ? ` (${h.message})` : ''}\n`);
  if (h.outcome !== 'Applied') process.exitCode = 1;
}
