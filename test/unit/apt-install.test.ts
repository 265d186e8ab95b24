/**
 * scripts/apt-install.sh: while apt-get runs no service may start (policy-rc.d) and PostgreSQL makes
 * no main cluster; afterwards both files are as they were, even when apt-get fails under `set -e`.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const SCRIPT = path.resolve(__dirname, '../../scripts/apt-install.sh');

/** Runs `apt_install pkg` as if root, with an apt-get that records what it saw and exits `aptStatus`. */
function aptInstall(dir: string, aptStatus: number) {
  const bin = path.join(dir, 'bin');
  fs.mkdirSync(bin, { recursive: true });
  const policy = path.join(dir, 'policy-rc.d');
  const conf = path.join(dir, 'postgresql-common', 'createcluster.conf');
  fs.writeFileSync(path.join(bin, 'id'), '#!/bin/sh\necho 0\n', { mode: 0o755 });
  fs.writeFileSync(
    path.join(bin, 'apt-get'),
    `#!/bin/sh\ncat '${policy}' > '${dir}/policy-seen'\ncat '${conf}' > '${dir}/conf-seen'\nexit ${aptStatus}\n`,
    { mode: 0o755 },
  );
  const result = spawnSync('bash', ['-c', `set -euo pipefail; source '${SCRIPT}'; apt_install postgresql`], {
    encoding: 'utf8',
    env: { ...process.env, PATH: `${bin}:${process.env.PATH}`, APT_POLICY_RC_D: policy, PG_CREATECLUSTER_CONF: conf },
  });
  const read = (f: string) => (fs.existsSync(f) ? fs.readFileSync(f, 'utf8') : null);
  return {
    status: result.status,
    seen: { policy: read(path.join(dir, 'policy-seen')), conf: read(path.join(dir, 'conf-seen')) },
    after: { policy: read(policy), conf: read(conf) },
  };
}

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'apt-install-'));

it('refuses service starts and the main cluster while apt-get runs, and leaves nothing behind when it fails', () => {
  const run = aptInstall(tmp(), 1);
  expect(run.status).not.toBe(0);
  expect(run.seen.policy).toBe('#!/bin/sh\nexit 101\n');
  expect(run.seen.conf).toBe('create_main_cluster = false\n');
  expect(run.after).toEqual({ policy: null, conf: null });
});

it('puts back the files that were there before, as they were', () => {
  const dir = tmp();
  fs.writeFileSync(path.join(dir, 'policy-rc.d'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
  fs.mkdirSync(path.join(dir, 'postgresql-common'));
  fs.writeFileSync(path.join(dir, 'postgresql-common', 'createcluster.conf'), 'ssl = on\n');
  const run = aptInstall(dir, 0);
  expect(run.status).toBe(0);
  expect(run.seen.policy).toBe('#!/bin/sh\nexit 101\n');
  expect(run.after).toEqual({ policy: '#!/bin/sh\nexit 0\n', conf: 'ssl = on\n' });
});
