/**
 * The embedded servers' SQLite driver (scripts/sqlite-driver): its own Go tests (modernc.org/sqlite's
 * contract on SQLite's C library: the DSN's pragmas, duplicate-key codes, the wording of a table that
 * exists, the time format, full-text tables, repeated statements from the cache), and the Temporal
 * dev server, FerretDB and scripts/sqlite-tune that the set-up built carry it. Every other test runs on those servers.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { binariesFromEnv } from '../src/launch/back-ends';

const run = promisify(execFile);
const DRIVER = path.resolve(__dirname, '../scripts/sqlite-driver');

it("keeps modernc.org/sqlite's contract on SQLite's C library (its Go tests)", async () => {
  const { stdout } = await run('go', ['test', '-count=1', '-v', '-tags', 'sqlite_fts5', './...'], {
    cwd: DRIVER,
    env: { ...process.env, CGO_ENABLED: '1' },
  });
  for (const name of [
    'TestPragmasInBothForms',
    'TestAFailedPragmaFailsTheOpen',
    'TestConstraintErrorsCarryTheExtendedCode',
    'TestATableThatExistsIsWordedAsModerncWordsIt',
    'TestTimesAreWrittenInModerncsSqliteFormat',
    'TestFullTextSearchIsBuiltIn',
    'TestSqliteURIParametersPassThrough',
    'TestRepeatedStatementsAnswerTheSame',
  ])
    expect(stdout).toContain(`--- PASS: ${name}`);
  expect(stdout).toMatch(/^ok\s+modernc\.org\/sqlite\s/m);
});

const binary = binariesFromEnv('npm test');

it.each(['TEMPORAL_CLI_BIN', 'FERRETDB_BIN', 'SQLITE_TUNE_BIN'] as const)(
  '%s is built on it, with cgo and full-text tables',
  async (v) => {
    const { stdout } = await run('go', ['version', '-m', binary(v)]);
    expect(stdout).toMatch(/^\s+dep\s+github\.com\/mattn\/go-sqlite3\s/m);
    // The replace directive names the driver's folder: absolute for the servers, relative for sqlite-tune's go.mod.
    expect(stdout).toMatch(/^\s+=>\s+\S*\/scripts\/sqlite-driver\s|^\s+=>\s+\.\.\/sqlite-driver\s/m);
    expect(stdout).toMatch(/^\s+build\s+CGO_ENABLED=1$/m);
    expect(stdout).toMatch(/^\s+build\s+-tags=sqlite_fts5$/m);
  },
);
