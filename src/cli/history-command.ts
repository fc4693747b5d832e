import type { Command } from 'commander';
import type { FlowSourceStatus } from '../api/index.js';
import { loadSource } from './source-arg.js';
import { summaryOf } from './command-table.js';

/** Left-aligned columns separated by three spaces, like kubectl's tables. */
export function renderTable(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return `${rows
    .map((r) =>
      r
        .map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!)))
        .join('   ')
        .trimEnd(),
    )
    .join('\n')}\n`;
}

/** `flowops history <source>`: the commits a FlowSource synced, newest first, with outcome and the state each reached; `*` marks the live one. */
export function registerHistoryCommand(program: Command): void {
  program
    .command('history')
    .description(summaryOf('history'))
    .argument('<source>', 'FlowSource as [namespace/]name')
    .option('--kubeconfig <file>', 'kubeconfig to use (default: KUBECONFIG or ~/.kube/config)')
    .action(async (arg: string, flags: { kubeconfig?: string }) => {
      const { source } = await loadSource(arg, flags.kubeconfig);
      const status = (source.status ?? {}) as FlowSourceStatus;
      // STATE: what the commit reached once applied (src/notify): pending, success, failure or error.
      const states = new Map((status.commits ?? []).map((c) => [c.revision, c.state]));
      // SIGNER only for a source with spec.verify: a Refused row's MESSAGE says why it was refused.
      const signed = (status.history ?? []).some((h) => h.signer);
      // ORIGIN only for an OCI source: the Git revision each artifact (REVISION: tag@digest) was pushed from.
      const fromOci = (status.history ?? []).some((h) => h.origin);
      const extra = [...(signed ? ['SIGNER'] : []), ...(fromOci ? ['ORIGIN'] : [])];
      const rows = [['', 'REVISION', 'TIME', 'OUTCOME', 'STATE', ...extra, 'MESSAGE']];
      for (const h of status.history ?? []) {
        const signer = signed ? [h.signer ?? ''] : [];
        const origin = fromOci ? [h.origin ?? ''] : [];
        const state = states.get(h.revision) ?? '-';
        const live = h.revision === status.lastAppliedRevision ? '*' : '';
        rows.push([live, h.revision, h.time, h.outcome, state, ...signer, ...origin, (h.message ?? '').slice(0, 240)]);
      }
      const spec = source.spec as { ref?: { commit?: string }; oci?: { ref?: { digest?: string } } };
      const pin = spec.ref?.commit ?? spec.oci?.ref?.digest;
      process.stdout.write(renderTable(rows));
      if (pin) process.stdout.write(`pinned to ${pin} (flowops rollback ${arg} --unpin follows the branch again)\n`);
    });
}
