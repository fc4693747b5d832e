import { Command, Help } from 'commander';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/command-table.js';
import { runFlowops } from '../helpers/cli.js';

// main.ts draws the top-level help from the table and loads one command's module; the table must
// say exactly what the modules register, or help and the commands drift apart.
describe('the CLI command table', () => {
  it('lists every command the modules register, with their terms and descriptions', async () => {
    const program = new Command('flowops');
    for (const register of new Set(await Promise.all(COMMANDS.map((c) => c.load())))) register(program);
    const help = new Help();
    const registered = program.commands.map((c) => ({
      name: c.name(),
      term: help.subcommandTerm(c),
      summary: c.description(),
    }));
    expect(registered).toEqual(
      COMMANDS.map((c) => ({ name: c.name, term: [c.name, c.term].filter(Boolean).join(' '), summary: c.summary })),
    );
  });

  it('top-level help lists them all; a command runs with only its own module', async () => {
    const run = async (args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> => {
      const p = runFlowops(args);
      const { code } = await p.exited;
      return { code, stdout: p.stdout(), stderr: p.stderr() };
    };
    const help = await run(['--help']);
    expect(help.code).toBe(0);
    for (const c of COMMANDS) expect(help.stdout).toContain(`  ${[c.name, c.term].filter(Boolean).join(' ')} `);
    expect(help.stdout).toContain('help [command]');
    const bogus = await run(['bogus']);
    expect(bogus.code).toBe(1);
    expect(bogus.stderr).toContain("unknown command 'bogus'");
    const sub = await run(['help', 'tree']);
    expect(sub.stdout).toContain('Usage: flowops tree [options] <object>');
  });
});
