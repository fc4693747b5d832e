import { FLOW_API_VERSION } from '../../api/flow.js';
import { resolveKind, UnknownResourceError } from '../../kube/kind-resolver.js';
import { kubeFrom } from '../cluster-flags.js';
import { SetupError } from '../setup-error.js';
import { ownerOfChild, treeOfFlow, treeOfObject, type CausalTree } from './causal-tree.js';
import { colours, plain, renderTrees } from './render-tree.js';

/** Prints the tree (or JSON) of KIND/NAME. A display verb: exit 0 whatever the health (use `kubectl wait` to gate on it). */
export async function runTree(arg: string, flags: { namespace?: string | undefined; kubeconfig?: string | undefined; output?: string | undefined }): Promise<number> {
  if (flags.output !== undefined && flags.output !== 'json') throw new SetupError(`--output: expected "json", got "${flags.output}"`);
  const slash = arg.indexOf('/');
  if (slash <= 0 || slash === arg.length - 1) throw new SetupError(`expected KIND/NAME (e.g. database/my-postgres), got "${arg}"`);
  const kube = await kubeFrom(flags);
  try {
    let kind;
    try {
      kind = await resolveKind(kube.rest, arg.slice(0, slash));
    } catch (e) {
      if (e instanceof UnknownResourceError) throw new SetupError(e.message);
      throw e;
    }
    const name = arg.slice(slash + 1);
    const ref = { apiVersion: kind.apiVersion, kind: kind.kind, name, ...(kind.namespaced ? { namespace: flags.namespace ?? 'default' } : {}) };
    const obj = await kube.get(ref);
    if (!obj) throw new SetupError(`${kind.kind.toLowerCase()} "${name}" not found${kind.namespaced ? ` in namespace ${flags.namespace ?? 'default'}` : ''}`);
    // A child leads up to its owner: the chain that explains it is the owner's.
    const owner = obj.apiVersion === FLOW_API_VERSION ? undefined : await ownerOfChild(kube, obj);
    if (owner && flags.output !== 'json') process.stdout.write(`${obj.kind} ${name} is a child of ${owner.kind} ${owner.metadata.namespace ? `${owner.metadata.namespace}/` : ''}${owner.metadata.name}:\n`);
    const subject = owner ?? obj;
    const trees: CausalTree[] = subject.apiVersion === FLOW_API_VERSION && subject.kind === 'Flow' ? [await treeOfFlow(kube, subject)] : await treeOfObject(kube, subject);
    process.stdout.write(flags.output === 'json' ? `${JSON.stringify(trees.length === 1 ? trees[0] : trees, null, 2)}\n` : renderTrees(trees, process.stdout.isTTY ? colours : plain));
    return 0;
  } finally {
    kube.rest.close();
  }
}
