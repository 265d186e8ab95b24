/**
 * Where no network namespace can be made (here: a missing `unshare`), the embedded dev server
 * falls back to a loopback port and says why (src/launch/servers/dev-namespace.ts), so the launcher
 * warns; TEMPORAL_ADDRESS given by the operator is used as it is, namespace or not.
 */
import { temporalBackEnd } from '../../src/launch/back-ends';
import { namespaceSupport } from '../../src/launch/servers/dev-namespace';

const options = {
  binary: () => '/nonexistent',
  dataDir: '/data',
  logDir: '/data/logs',
  port: 7233,
  namespace: 'default',
};

it('falls back to a loopback port, saying why, where no namespace can be made', () => {
  const unshare = '/nonexistent/unshare';
  expect(namespaceSupport(unshare)).toEqual({ ok: false, why: expect.stringContaining('unshare') });
  const temporal = temporalBackEnd({ ...options, unshare });
  expect(temporal.address).toBe('127.0.0.1:7233');
  expect(temporal.openToLocalUsers).toContain('ENOENT');
});

it('runs it in a namespace of its own, reached through its socket, where one can be made', () => {
  expect(namespaceSupport()).toEqual({ ok: true }); // this machine (scripts/binaries.sh installs iproute2)
  const temporal = temporalBackEnd(options);
  expect(temporal.address).toBe('unix:///data/temporal-sockets/grpc.sock');
  expect(temporal.openToLocalUsers).toBeNull();
});

it('uses a TEMPORAL_ADDRESS given as it is', () => {
  const temporal = temporalBackEnd({ ...options, address: 'temporal.internal:7233' });
  expect(temporal).toMatchObject({ address: 'temporal.internal:7233', embedded: false, openToLocalUsers: null });
});
