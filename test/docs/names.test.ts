import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import type { Command } from 'commander';
import { CliIo } from '../../src/cli/io.js';
import { createProgram } from '../../src/cli/program.js';
import { ROOT } from '../support/repo.js';

/**
 * The reference documents name everything there is: every command of the CLI (each command and
 * subcommand that runs, as the program itself registers them) has its row in docs/cli.md's command
 * table, and every folder of src/modules/ its line in README.md's layout; and neither names one
 * that is gone. Builds the program without running it: no database, no server.
 */

const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');

/** The full names of the commands that run (`topups approve`, `staff 2fa-reset`, `simulate`), in the program's order. */
function commandNames(command: Command, prefix: string[] = []): string[] {
  return command.commands.flatMap((sub) => {
    const name = [...prefix, sub.name()];
    return sub.commands.length > 0 ? commandNames(sub, name) : [name.join(' ')];
  });
}

const program = createProgram(new CliIo({}, () => {}, () => {}));
const COMMANDS = commandNames(program);

/**
 * The code spans of the first cell of each row of the markdown tables in `text`: where a command
 * table names its commands (`` `topups approve <id...>` ``, `` `staff create`, `staff list` ``).
 * Header and separator rows are left out; `\|` inside a cell is not a cell's end.
 */
function firstCellSpans(text: string): string[] {
  return text.split('\n').flatMap((line) => {
    if (!line.startsWith('|')) return [];
    const first = line.split(/(?<!\\)\|/)[1]?.trim() ?? '';
    if (first === 'command' || /^:?-+:?$/.test(first)) return [];
    return [...first.matchAll(/`([^`]+)`/g)].map((m) => (m[1] ?? '').replace(/\\\|/g, '|'));
  });
}

/** Whether a code span names `command`: it starts with the full name, then ends or goes on after a space. */
const names = (span: string, command: string) => span === command || span.startsWith(`${command} `);

/**
 * The command a span of the table means, by its words before the first argument or option: the
 * longest run of them that is a command of the program, or null when there is none.
 */
function commandOf(span: string): string | null {
  const words = span.split(' ');
  for (let n = words.length; n > 0; n--) {
    const candidate = words.slice(0, n).join(' ');
    if (COMMANDS.includes(candidate)) return candidate;
  }
  return null;
}

/** The lines of README.md's "Layout" section. */
function layoutLines(readme: string): string[] {
  const lines = readme.split('\n');
  const start = lines.indexOf('## Layout');
  assert.ok(start >= 0, 'README.md has a "## Layout" section');
  const end = lines.findIndex((line, i) => i > start && line.startsWith('## '));
  return lines.slice(start + 1, end < 0 ? undefined : end);
}

/** The module folders the layout gives a line of their own: `  <name>/   what it does`. */
function layoutModules(readme: string): string[] {
  return layoutLines(readme).flatMap((line) => {
    const m = /^ {2}([a-z][\w-]*)\/ {2,}\S/.exec(line);
    return m?.[1] ? [m[1]] : [];
  });
}

const MODULES = fs
  .readdirSync(path.join(ROOT, 'src/modules'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

describe('docs/cli.md names every command of the CLI', () => {
  const spans = firstCellSpans(read('docs/cli.md'));

  test('the program and the table are read as they should be', () => {
    assert.ok(COMMANDS.length > 40, `the program has ${COMMANDS.length} commands`);
    for (const command of ['serve', 'topups approve', 'staff 2fa-reset', 'simulate', 'backup']) assert.ok(COMMANDS.includes(command), command);
    assert.ok(!COMMANDS.includes('topups'), 'a group is not a command of its own');
    const sample = '| `orders show <order>` | … |\n| `staff create --role a\\|b`, `staff list` | … |\n| command | … |\n|---|---|\n`keys list` in prose';
    assert.deepEqual(firstCellSpans(sample), ['orders show <order>', 'staff create --role a|b', 'staff list']);
    assert.ok(names('topups approve <id...>', 'topups approve'));
    assert.ok(!names('topups approved', 'topups approve'));
    assert.ok(!names('webhooks', 'webhooks list'), 'a group names none of its commands');
  });

  for (const command of COMMANDS) {
    test(command, () => {
      assert.ok(
        spans.some((span) => names(span, command)),
        `docs/cli.md has no row for \`${command}\`: add one to the command table (its name in backticks in the first cell)`,
      );
    });
  }

  test('every command the table names exists', () => {
    const unknown = spans.filter((span) => commandOf(span) === null);
    assert.deepEqual(unknown, []);
  });
});

describe('README.md names every module of src/modules/', () => {
  const listed = layoutModules(read('README.md'));

  test('the layout is read as it should be', () => {
    assert.ok(MODULES.length > 10 && MODULES.includes('orders'), `src/modules/ has ${MODULES.length} folders`);
    assert.deepEqual(layoutModules('## Layout\n```\n  orders/             order reads\n  notes/ without a description\n```\n## Next\n  wallet/   x'), ['orders']);
  });

  for (const name of MODULES) {
    test(name, () => {
      assert.ok(listed.includes(name), `README.md's layout has no line "  ${name}/   <what it does>"`);
    });
  }

  test('every module the layout names exists', () => {
    assert.deepEqual(
      listed.filter((name) => !MODULES.includes(name)),
      [],
    );
  });
});
