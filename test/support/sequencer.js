/**
 * The order of the integration test files: jest's own (slowest or largest first), except that the
 * files that load the shared Temporal dev server for minutes (ALONE_LAST) run last, when the other
 * files are done. The dev server has one SQLite connection: a 10,000-row CSV that shared it with
 * the other files ran at a fifth of its speed and ran out of its deadline in CI.
 */
const Sequencer = require('@jest/test-sequencer').default;

const ALONE_LAST = ['/test/scale.test.ts'];

class AloneLastSequencer extends Sequencer {
  sort(tests) {
    const sorted = super.sort(tests);
    const last = (t) => ALONE_LAST.some((suffix) => t.path.endsWith(suffix));
    return [...sorted.filter((t) => !last(t)), ...sorted.filter(last)];
  }
}

module.exports = AloneLastSequencer;
