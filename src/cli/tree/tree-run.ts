import { FLOW_API_VERSION } from '../../api/index.js';
import { objectRefOf, splitObjectArg } from '../object-arg.js';
import { kubeFrom } from '../cluster-flags.js';
import { SetupError } from '../../util/setup-error.js';
import { ownerOfChild, treeOfFlow, treeOfObject, type CausalTree } from './causal-tree.js';
import { colours, plain, renderTrees } from './render-tree.js';

/** Prints the tree (or JSON) of KIND/NAME. A display verb: exit 0 whatever the health (use `kubectl wait` to gate on it). */
export async function runTree(
  arg: string,
  flags: { namespace?: string | undefined; kubeconfig?: string | undefined; output?: string | undefined },
): Promise<number> {
  if (flags.output !== undefined && flags.output !== 'json')
    throw new SetupError(`--output: expected "json", got "${flags.output}"`);
  splitObjectArg(arg);
  const kube = await kubeFrom(flags);
  try {
    const { namespaced, ...ref } = await objectRefOf(kube, arg, flags.namespace);
    const name = ref.name;
    const obj = await kube.get(ref);
    if (!obj)
      throw new SetupError(
        `${ref.kind.toLowerCase()} "${name}" not found${namespaced ? ` in namespace ${ref.namespace}` : ''}`,
      );
    // A child leads up to its owner: the chain that explains it is the owner's.
    const owner = obj.apiVersion === FLOW_API_VERSION ? undefined : await ownerOfChild(kube, obj);
    if (owner && flags.output !== 'json')
      process.stdout.write(
        `${obj.kind} ${name} is a child of ${owner.kind} ${owner.metadata.namespace ? `${owner.metadata.namespace}/` : ''}${owner.metadata.name}:\n`,
      );
    const subject = owner ?? obj;
    const trees: CausalTree[] =
      subject.apiVersion === FLOW_API_VERSION && subject.kind === 'Flow'
        ? [await treeOfFlow(kube, subject)]
        : await treeOfObject(kube, subject);
    process.stdout.write(
      flags.output === 'json'
        ? `${JSON.stringify(trees.length === 1 ? trees[0] : trees, null, 2)}\n`
        : renderTrees(trees, process.stdout.isTTY ? colours : plain),
    );
    return 0;
  } finally {
    kube.rest.close();
  }
}
