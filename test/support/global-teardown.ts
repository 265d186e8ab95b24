import fs from 'node:fs';

export default async function globalTeardown(): Promise<void> {
  const state = globalThis.__testServers;
  if (!state) return;
  await Promise.all(state.servers.map((s) => s.stop()));
  fs.rmSync(state.dir, { recursive: true, force: true });
}
