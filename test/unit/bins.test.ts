/** scripts/bins.sh: set-up scripts' `NAME_BIN=path` lines are exported as data, never evaluated. */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const BINS = path.resolve(__dirname, '../../scripts/bins.sh');

it('exports a path with spaces, quotes and shell syntax as it is, and runs none of it', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bins-'));
  const marker = path.join(dir, 'ran');
  const odd = `${dir}/with space/$(touch ${marker});"'\`touch ${marker}\``;
  // The set-up script prints the line from a file, as it is.
  fs.writeFileSync(path.join(dir, 'line'), `ODD_BIN=${odd}\n`);
  const script = path.join(dir, 'setup.sh');
  fs.writeFileSync(script, `#!/usr/bin/env bash\necho 'building…'\ncat '${dir}/line'\n`, { mode: 0o755 });
  const out = execFileSync(
    'bash',
    ['-c', `set -euo pipefail; source ${BINS}; use_bins ${script}; printf %s "$ODD_BIN"`],
    {
      encoding: 'utf8',
    },
  );
  expect(out).toBe(odd);
  expect(fs.existsSync(marker)).toBe(false);
  fs.rmSync(dir, { recursive: true, force: true });
});

it('stops the caller when the set-up script fails', () => {
  expect(() =>
    execFileSync('bash', ['-c', `set -euo pipefail; source ${BINS}; use_bins false; echo went-on`], {
      encoding: 'utf8',
    }),
  ).toThrow();
});

it('exports a name with a digit (N8N_BIN: the bench left n8n out when only letters were taken)', () => {
  const out = execFileSync(
    'bash',
    ['-c', `set -euo pipefail; source ${BINS}; use_bins echo N8N_BIN=/opt/n8n; printf %s "$N8N_BIN"`],
    { encoding: 'utf8' },
  );
  expect(out).toBe('/opt/n8n');
});
