/**
 * The Docker image runs as the unprivileged user `node` with DATA_DIR=/data (defect: `node` could
 * not create /data). No Docker here, so: the Dockerfile makes the folder that user's before it
 * switches to it, and the config, run as an unprivileged user, works in a folder it owns and
 * stops with a clear message in one it cannot write.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const dockerfile = fs.readFileSync(path.join(__dirname, '../../Dockerfile'), 'utf8').split('\n');

it('gives DATA_DIR to the user the processes run as, before switching to it', () => {
  const at = (re: RegExp) => dockerfile.findIndex((l) => re.test(l));
  const dataDir = /ENV .*DATA_DIR=(\S+)/.exec(dockerfile[at(/^ENV .*DATA_DIR=/)])![1];
  const user = /^USER (\S+)/.exec(dockerfile[at(/^USER /)])![1];
  const chown = at(new RegExp(`chown ${user}:${user} ${dataDir}(\\s|$)`));
  expect(chown).toBeGreaterThan(-1);
  expect(chown).toBeLessThan(at(/^USER /));
  expect(dockerfile[chown]).toContain(`mkdir -p ${dataDir}`);
});

// Needs root to switch to an unprivileged user (as the image does).
(process.getuid?.() === 0 ? describe : describe.skip)('the config as an unprivileged user', () => {
  const nobody = 65534;
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'docker-image-'));
  fs.chmodSync(root, 0o755);
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
  // The compiled config (the set-up of `npm test` builds it), as the image's entry points load it.
  const configModule = path.join(__dirname, '../../dist/src/core/config.js');
  const loadAs = (dataDir: string) =>
    spawnSync(
      'setpriv',
      [
        `--reuid=${nobody}`,
        `--regid=${nobody}`,
        '--clear-groups',
        process.execPath,
        '-e',
        `require(${JSON.stringify(configModule)}).loadConfig({ DATA_DIR: ${JSON.stringify(dataDir)} })`,
      ],
      { encoding: 'utf8' },
    );

  it('starts in a DATA_DIR the user owns, and writes its secrets there', () => {
    const owned = path.join(root, 'owned');
    fs.mkdirSync(owned);
    fs.chownSync(owned, nobody, nobody);
    const run = loadAs(owned);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(fs.statSync(path.join(owned, 'admin-token')).uid).toBe(nobody);
  });

  it('stops with a message naming DATA_DIR when it cannot write there', () => {
    const run = loadAs(path.join(root, 'data'));
    expect(run.status).not.toBe(0);
    expect(run.stderr).toMatch(/DATA_DIR: \S+ cannot be written by this user \(uid 65534\) \(EACCES\)/);
  });
});
