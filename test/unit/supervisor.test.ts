/** The launcher's supervisor: restarts with a growing delay and says why a process died. */
import type { Logger } from '../../src/core/log';
import { restartDelay, RESTART_MAX_MS, supervise } from '../../src/launch/os/supervisor';
import { waitFor } from '../../src/launch/os/wait';

it('waits 1, 2, 4… seconds between restarts in a row, up to a minute', () => {
  expect([1, 2, 3, 4, 7, 8, 20].map(restartDelay)).toEqual([
    1000,
    2000,
    4000,
    8000,
    RESTART_MAX_MS,
    RESTART_MAX_MS,
    RESTART_MAX_MS,
  ]);
});

it('logs each death with its exit code and last words, and restarts later each time', async () => {
  const warnings: Array<{ message: string; fields?: Record<string, unknown> }> = [];
  const log: Logger = {
    debug: () => undefined,
    info: () => undefined,
    error: () => undefined,
    warn: (message, fields) => warnings.push({ message, fields }),
    child: () => log,
    enabled: (level) => level === 'warn',
  };
  const stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
  const crashing = supervise(
    'worker',
    process.execPath,
    ['-e', 'console.error("cannot reach MongoDB"); process.exit(3)'],
    process.env,
    log,
  );
  try {
    await waitFor(
      () => warnings.length,
      (n) => n >= 2,
      10_000,
    );
  } finally {
    await crashing.stop();
    stderr.mockRestore();
  }
  expect(warnings[0]).toEqual({
    message: 'worker exited (3); restarting in 1 s',
    fields: { failuresInARow: 1, lastWords: ['cannot reach MongoDB'] },
  });
  expect(warnings[1].message).toBe('worker exited (3); restarting in 2 s');
});
