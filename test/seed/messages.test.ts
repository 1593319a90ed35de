import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { closestName, editDistance } from '../../src/lib/did-you-mean.js';
import { parseSeed, SeedError } from '../../src/seed/import.js';
import { createTestDatabase, type TestDatabase } from '../support/app.js';
import { FIXTURE_SEED } from '../support/seed.js';
import { cliDatabaseEnv, runCli } from '../support/cli.js';

type Seed = Record<string, Array<Record<string, unknown>>>;

function fixture(): Seed {
  return JSON.parse(fs.readFileSync(FIXTURE_SEED, 'utf8')) as Seed;
}

/** The fixture's entry `index` of `section`, to break. */
function entry(seed: Seed, section: string, index: number): Record<string, unknown> {
  const found = seed[section]?.[index];
  if (!found) throw new Error(`no ${section}[${index}] in the fixture`);
  return found;
}

function rejection(text: string): string {
  try {
    parseSeed(text);
  } catch (error) {
    assert.ok(error instanceof SeedError, String(error));
    return error.message;
  }
  assert.fail('the seed was accepted');
}

function rejectionOf(breakIt: (seed: Seed) => void): string {
  const seed = fixture();
  breakIt(seed);
  return rejection(JSON.stringify(seed, null, 2));
}

describe('seed import messages (docs/seed-import.md: a malformed file names the bad entry)', () => {
  const cases: [string, (seed: Seed) => void, string][] = [
    [
      'a misspelt field',
      (s) => {
        const p = entry(s, 'dataPackages', 0);
        p.pirce = p.price;
        delete p.price;
      },
      'dataPackages[0] (id "pkg_a_1gb"): unknown field pirce (did you mean price?)',
    ],
    [
      'a misspelt section',
      (s) => {
        s.dataPakages = s.dataPackages ?? [];
        delete s.dataPackages;
      },
      'unknown section dataPakages (did you mean dataPackages?)',
    ],
    ['a section nothing is close to', (s) => (s.users = []), 'unknown section users (allowed: operators, products, dataPackages, resultCheckerPackages, profiles, orders)'],
    [
      'a field nothing is close to, and a missing one',
      (s) => {
        const p = entry(s, 'dataPackages', 1);
        p.cost = p.price;
        delete p.price;
      },
      'dataPackages[1] (id "pkg_a_2gb"): unknown field cost; missing field price',
    ],
    ['a misspelt role price', (s) => (entry(s, 'dataPackages', 0).rolePrices = { Agnet: 9 }), 'dataPackages[0] (id "pkg_a_1gb") field rolePrices: unknown field Agnet (did you mean Agent?)'],
    [
      'a role that does not exist',
      (s) => (entry(s, 'profiles', 2).role = 'Admin'),
      'profiles[2] (id "usr_customer") field role: must be one of Agent, SuperAgent, Customer, Staff (got "Admin")',
    ],
    ['a status of another section', (s) => (entry(s, 'products', 1).status = 'Active'), 'products[1] (id "prd_a_off") field status: must be one of Available, Unavailable (got "Active")'],
    ['a price written as a string', (s) => (entry(s, 'dataPackages', 0).price = '12'), 'dataPackages[0] (id "pkg_a_1gb") field price: must be a number (got "12")'],
    ['a nested amount of the wrong type', (s) => (entry(s, 'profiles', 1).wallet = { live: '5' }), 'profiles[1] (id "usr_agent") field wallet.live: must be a number (got "5")'],
    ['a value none of the alternatives takes', (s) => (entry(s, 'resultCheckerPackages', 0).description = 5), 'resultCheckerPackages[0] (id "rcp_wassce") field description: must be a string or null (got 5)'],
    ['a negative price', (s) => (entry(s, 'dataPackages', 3).price = -1), 'dataPackages[3] (id "pkg_a_legacy") field price: must be at least 0 (got -1)'],
    ['a missing field', (s) => delete entry(s, 'profiles', 0).email, 'profiles[0] (id "usr_super"): missing field email'],
    ['a malformed id', (s) => (entry(s, 'operators', 1).id = 'op b'), 'operators[1] (id "op b") field id: must be letters, digits and _ . : - only (got "op b")'],
    ['a section that is not a list', (s) => ((s as Record<string, unknown>).operators = {}), 'section operators: must be an array (got {})'],
  ];
  for (const [name, breakIt, message] of cases) {
    test(`${name}: ${message}`, () => assert.equal(rejectionOf(breakIt), message));
  }

  test('the first bad entry of the file is the one named', () => {
    const message = rejectionOf((s) => {
      entry(s, 'profiles', 4).role = 'Boss';
      entry(s, 'operators', 2).status = 'Closed';
    });
    assert.equal(message, 'operators[2] (id "op_off") field status: must be one of Active, Inactive (got "Closed")');
  });

  test('a file that is not an object', () => assert.equal(rejection('[]'), 'the seed file must be an object (got [])'));

  const syntax: [string, string, string][] = [
    ['a missing comma', '{\n  "operators": [\n    { "id": "op_x" }\n    { "id": "op_y" }\n  ]\n}\n', "line 4, column 5: expected ',' or ']' after an array element, found '{'"],
    ['a trailing comma', '{\n  "operators": [],\n}', "line 3, column 1: a comma before '}': JSON allows no trailing comma"],
    ['single quotes', "{ 'operators': [] }", `line 1, column 3: expected a property name in double quotes, found "'"`],
    ['a truncated file', '{\n  "operators": [\n', "line 3, column 1: expected a value, found the end of the file"],
    ['an empty file', '', 'line 1, column 1: the file is empty'],
    ['a line break inside a string', '{ "a": "one\ntwo" }', 'line 1, column 12: a control character ("\\n") inside a string: write it as an escape such as \\n'],
    ['text after the document', '{}\n}', "line 2, column 1: unexpected '}' after the end of the JSON document"],
  ];
  for (const [name, text, where] of syntax) {
    test(`JSON syntax, ${name}: line and column`, () => assert.equal(rejection(text), `seed file is not valid JSON at ${where}`));
  }

  test('a byte-order mark (Windows editors) is not a syntax error', () => {
    assert.deepEqual(parseSeed('\uFEFF{ "operators": [] }'), { operators: [] });
  });

  test('suggestions only for close names', () => {
    assert.equal(editDistance('pirce', 'price'), 1);
    assert.equal(editDistance('dataPakages', 'dataPackages'), 1);
    assert.equal(editDistance('colour', 'code'), 4);
    assert.equal(closestName('pirce', ['id', 'label', 'price']), 'price');
    assert.equal(closestName('Status', ['id', 'status']), 'status');
    assert.equal(closestName('colour', ['code', 'label', 'status']), undefined);
    assert.equal(closestName('xy', ['id']), undefined, 'two edits on a short word are too many');
  });

  describe('cli import', () => {
    let testDb: TestDatabase;
    let dir: string;
    before(async () => {
      testDb = await createTestDatabase();
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'partner-api-seed-messages-'));
    });
    after(async () => {
      await testDb.drop();
      fs.rmSync(dir, { recursive: true, force: true });
    });

    test('prints the message in one line, exits 1, writes nothing', { timeout: 180_000 }, async () => {
      const env = cliDatabaseEnv(testDb);
      const files: [string, string, string][] = [
        [
          'misspelt.json',
          JSON.stringify({ dataPakages: [] }),
          'import rejected, nothing written: unknown section dataPakages (did you mean dataPackages?)',
        ],
        [
          'role.json',
          JSON.stringify({ profiles: [{ ...entry(fixture(), 'profiles', 0), id: 'usr_x', role: 'Admin' }] }, null, 2),
          'import rejected, nothing written: profiles[0] (id "usr_x") field role: must be one of Agent, SuperAgent, Customer, Staff (got "Admin")',
        ],
        [
          'syntax.json',
          '{\n  "operators": [\n    { "id": "op_x", "code": "X", "name": "X", "status": "Active" }\n    { "id": "op_y" }\n  ]\n}\n',
          "import rejected, nothing written: seed file is not valid JSON at line 4, column 5: expected ',' or ']' after an array element, found '{'",
        ],
      ];
      for (const [name, text, expected] of files) {
        fs.writeFileSync(path.join(dir, name), text);
        const result = await runCli(['import', path.join(dir, name)], env, 60_000);
        assert.equal(result.code, 1, result.stderr);
        assert.equal(result.stdout, '');
        assert.equal(result.stderr, `${expected}\n`);
      }
      const profiles = await testDb.database.db.selectFrom('profiles').select('id').execute();
      assert.deepEqual(profiles, []);
    });
  });
});
