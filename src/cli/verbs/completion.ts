// `flowops completion bash|zsh|fish`: shell completion scripts generated from the commands and
// options commander knows, so they never drift from the CLI.

import type { Command } from 'commander';
import { SetupError } from '../../util/setup-error.js';

interface CommandInfo {
  name: string;
  options: string[];
}

function commandsOf(program: Command): CommandInfo[] {
  return program.commands.map((c) => ({
    name: c.name(),
    options: c.options.flatMap((o) => [o.long, o.short].filter((x): x is string => Boolean(x))),
  }));
}

export function completionScript(program: Command, shell: string): string {
  const cmds = commandsOf(program);
  const names = cmds.map((c) => c.name).join(' ');
  if (shell === 'bash') {
    const cases = cmds.map((c) => `    ${c.name}) opts="${c.options.join(' ')}" ;;`).join('\n');
    return `# flowops bash completion: source <(flowops completion bash)
_flowops() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" cmd="\${COMP_WORDS[1]}" opts=""
  if [ "$COMP_CWORD" -eq 1 ]; then COMPREPLY=($(compgen -W "${names}" -- "$cur")); return; fi
  case "$cmd" in
${cases}
  esac
  COMPREPLY=($(compgen -W "$opts" -- "$cur"))
}
complete -o default -F _flowops flowops
`;
  }
  if (shell === 'zsh') {
    const cases = cmds
      .map((c) => `    ${c.name}) _values 'option' ${c.options.map((o) => `'${o}'`).join(' ')} ;;`)
      .join('\n');
    return `#compdef flowops
# flowops zsh completion: source <(flowops completion zsh)
_flowops() {
  if (( CURRENT == 2 )); then _values 'command' ${cmds.map((c) => `'${c.name}'`).join(' ')}; return; fi
  case "$words[2]" in
${cases}
  esac
}
compdef _flowops flowops
`;
  }
  if (shell === 'fish') {
    const lines = [
      `# flowops fish completion: flowops completion fish | source`,
      `complete -c flowops -f -n '__fish_use_subcommand' -a '${names}'`,
    ];
    for (const c of cmds)
      for (const o of c.options.filter((x) => x.startsWith('--')))
        lines.push(`complete -c flowops -f -n '__fish_seen_subcommand_from ${c.name}' -l ${o.slice(2)}`);
    return `${lines.join('\n')}\n`;
  }
  throw new SetupError(`completion: expected bash, zsh or fish, got "${shell}"`);
}
