// Which interpreter runs a script step: `language` when given, else the shebang (`#!/bin/sh`,
// `#!/usr/bin/env python3`), else bash. Pure, so validation can use it without the executors.

import { basename } from 'node:path';

export interface Interpreter {
  family: 'shell' | 'python';
  command: 'bash' | 'sh' | 'python3';
  file: string;
}

const BY_NAME: Record<string, Interpreter> = {
  bash: { family: 'shell', command: 'bash', file: 'script.sh' },
  sh: { family: 'shell', command: 'sh', file: 'script.sh' },
  python: { family: 'python', command: 'python3', file: 'script.py' },
  python3: { family: 'python', command: 'python3', file: 'script.py' },
};

export interface ScriptText {
  script: string;
  language?: string | undefined;
}

/** The interpreter, or the name of the unsupported program the #! line asks for. */
export function findInterpreter(step: ScriptText): Interpreter | { unsupported: string } {
  if (step.language) return BY_NAME[step.language] ?? { unsupported: step.language };
  const shebang = /^#!\s*(\S+)([^\n]*)/.exec(step.script.trimStart());
  if (!shebang) return BY_NAME.bash!;
  let program = basename(shebang[1] as string);
  if (program === 'env')
    program =
      (shebang[2] ?? '')
        .trim()
        .split(/\s+/)
        .find((a) => a && !a.startsWith('-')) ?? '';
  return BY_NAME[program.replace(/^python3(\.\d+)?$/, 'python3')] ?? { unsupported: program };
}
