import { EMBEDDED_GO_DEBUG, EMBEDDED_GO_GC_PERCENT } from '../../src/domain/limits';
import { goServerEnv } from '../../src/launch/servers/go-env';

it('starts the embedded Go servers with EMBEDDED_GO_GC_PERCENT and EMBEDDED_GO_DEBUG, its own env kept', () => {
  const env = goServerEnv({ PATH: '/usr/bin' });
  expect(env).toEqual({ PATH: '/usr/bin', GOGC: String(EMBEDDED_GO_GC_PERCENT), GODEBUG: 'madvdontneed=0' });
  expect(EMBEDDED_GO_DEBUG).toBe('madvdontneed=0');
});

it("leaves an operator's own GOGC and GODEBUG alone", () => {
  const env = goServerEnv({ GOGC: '100', GODEBUG: 'madvdontneed=1' });
  expect([env.GOGC, env.GODEBUG]).toEqual(['100', 'madvdontneed=1']);
});
