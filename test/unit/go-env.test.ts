import { EMBEDDED_GO_GC_PERCENT } from '../../src/domain/limits';
import { goServerEnv } from '../../src/launch/servers/go-env';

it("starts the embedded Go servers with EMBEDDED_GO_GC_PERCENT, the launcher's own environment kept", () => {
  const env = goServerEnv({ PATH: '/usr/bin' });
  expect(env).toEqual({ PATH: '/usr/bin', GOGC: String(EMBEDDED_GO_GC_PERCENT) });
});

it("leaves an operator's own GOGC alone", () => {
  expect(goServerEnv({ GOGC: '100' }).GOGC).toBe('100');
});
