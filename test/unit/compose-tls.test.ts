/**
 * Compose's certificates (review R8): each service mounts a volume of its own with its own key, the
 * CA's key stays in the `tls` service's volume, and the entry's certificate is not the internal
 * CA's. docker/make-tls.sh runs for real (openssl) in a temporary folder in place of the volumes.
 */
import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { COMPOSE_ENTRY, entryConfig } from '../../src/launch/servers/nginx';
import { DEFAULT_MAX_BODY_BYTES } from '../../src/domain/limits';

const root = path.join(__dirname, '../..');
type Service = { volumes?: string[]; environment?: Record<string, unknown>; ports?: string[]; expose?: string[] };
const compose = parse(fs.readFileSync(path.join(root, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
  services: Record<string, Service>;
  volumes: Record<string, unknown>;
};
const { services } = compose;

/** The certificate volumes a service mounts: name → where, read-only or not. */
function tlsMounts(service: Service): Record<string, string> {
  const mounts = (service.volumes ?? []).map((v) => v.split(':')).filter(([source]) => source.startsWith('tls'));
  return Object.fromEntries(mounts.map(([source, target, mode]) => [source, `${target}${mode ? `:${mode}` : ''}`]));
}

/** Each service that uses certificates, the folder docker/make-tls.sh makes for it, read-only at /tls. */
const FOLDERS: Record<string, string> = {
  temporal: 'temporal',
  receiver: 'receiver',
  worker: 'worker',
  'temporal-ui': 'ui',
  'temporal-namespace': 'namespace',
  entry: 'edge',
};

it('mounts in each service its own certificates alone, and the CA key in no service but `tls`', () => {
  for (const [name, service] of Object.entries(services)) {
    const expected = name === 'tls' ? undefined : FOLDERS[name] ? { [`tls-${FOLDERS[name]}`]: '/tls:ro' } : {};
    if (expected) expect([name, tlsMounts(service)]).toEqual([name, expected]);
  }
  // `tls` writes every folder, the CA's among them.
  const folders = ['ca', ...new Set(Object.values(FOLDERS))];
  expect(tlsMounts(services.tls)).toEqual(Object.fromEntries(folders.map((f) => [`tls-${f}`, `/tls/${f}`])));
  expect(
    Object.keys(compose.volumes)
      .filter((v) => v.startsWith('tls'))
      .sort(),
  ).toEqual(folders.map((f) => `tls-${f}`).sort());
});

it("publishes no receiver's service port: senders reach the receivers through the entry only", () => {
  expect(services.receiver.expose).toContain('3000');
  expect((services.receiver.ports ?? []).filter((p) => /:3000$/.test(p))).toEqual([]);
});

const asRoot = process.getuid?.() === 0;
const maybe = asRoot ? describe : describe.skip;

maybe('docker/make-tls.sh (run as root, as its container does)', () => {
  let dir: string;
  const out = () => path.join(dir, 'out');
  const run = (env: NodeJS.ProcessEnv = {}) =>
    execFileSync('sh', [path.join(root, 'docker/make-tls.sh')], {
      env: { PATH: process.env.PATH, TLS_DIR: out(), TLS_GIVEN: path.join(dir, 'given'), ...env },
      stdio: 'pipe',
    });
  const cert = (file: string) => new X509Certificate(fs.readFileSync(path.join(out(), file)));
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'make-tls-'));
    fs.mkdirSync(path.join(dir, 'given'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('gives each service its own key, owned by its container user, and keeps the CA key apart', () => {
    run({ EDGE_HOSTNAME: 'hooks.example.com' });
    const files = (folder: string) => fs.readdirSync(path.join(out(), folder)).filter((f) => f.endsWith('.pem'));
    expect(files('ca').sort()).toEqual(['ca-key.pem', 'ca.pem']);
    expect(files('temporal').sort()).toEqual([
      'ca.pem',
      'client-key.pem',
      'client.pem',
      'frontend-key.pem',
      'frontend.pem',
    ]);
    for (const folder of ['receiver', 'worker', 'ui', 'namespace'])
      expect(files(folder).sort()).toEqual(['ca.pem', 'client-key.pem', 'client.pem']);
    expect(files('edge').sort()).toEqual(['edge-key.pem', 'edge.pem']);
    // Every key is another: no two folders share one.
    const keys = fs.readdirSync(out()).flatMap((f) =>
      files(f)
        .filter((k) => k.endsWith('-key.pem'))
        .map((k) => path.join(out(), f, k)),
    );
    expect(new Set(keys.map((k) => fs.readFileSync(k, 'utf8'))).size).toBe(keys.length);
    // Owners: uid 1000 (Temporal's images, ours) or root (the CA's, nginx's master); folders and keys theirs alone.
    for (const [folder, uid] of Object.entries({ ca: 0, edge: 0, temporal: 1000, receiver: 1000, ui: 1000 })) {
      const at = path.join(out(), folder);
      expect([folder, fs.statSync(at).uid, fs.statSync(at).mode & 0o777]).toEqual([folder, uid, 0o700]);
      for (const key of files(folder).filter((k) => k.endsWith('-key.pem'))) {
        const stat = fs.statSync(path.join(at, key));
        expect([key, stat.uid, stat.mode & 0o777]).toEqual([key, uid, 0o600]);
      }
    }
  });

  it("makes the entry's certificate self-signed, not the internal CA's, for localhost and EDGE_HOSTNAME", () => {
    run({ EDGE_HOSTNAME: 'hooks.example.com' });
    const ca = cert('ca/ca.pem');
    const edge = cert('edge/edge.pem');
    expect(edge.checkIssued(ca)).toBe(false);
    expect(edge.verify(ca.publicKey)).toBe(false);
    expect(edge.verify(edge.publicKey)).toBe(true);
    // It signs nothing: trusting it trusts this certificate alone.
    expect(edge.ca).toBe(false);
    expect(edge.subjectAltName).toBe('DNS:localhost, DNS:hooks.example.com, IP Address:127.0.0.1');
    // The internal ones are the CA's.
    for (const file of ['temporal/frontend.pem', 'temporal/client.pem', 'receiver/client.pem', 'ui/client.pem'])
      expect([file, cert(file).verify(ca.publicKey), cert(file).ca]).toEqual([file, true, false]);
  });

  it('serves a certificate given in docker/edge-tls/, and keeps what it made at a second run', () => {
    run();
    const made = fs.readFileSync(path.join(out(), 'receiver/client.pem'), 'utf8');
    fs.copyFileSync(path.join(out(), 'receiver/client.pem'), path.join(dir, 'given/cert.pem'));
    fs.copyFileSync(path.join(out(), 'receiver/client-key.pem'), path.join(dir, 'given/key.pem'));
    run();
    expect(fs.readFileSync(path.join(out(), 'receiver/client.pem'), 'utf8')).toBe(made);
    expect(fs.readFileSync(path.join(out(), 'edge/edge.pem'), 'utf8')).toBe(made);
    expect(fs.statSync(path.join(out(), 'edge/edge-key.pem')).uid).toBe(0);
  });

  it('has in each folder every file its service is configured to read at /tls', () => {
    run();
    const read = (text: string) => [...new Set(text.match(/\/tls\/[\w.-]+\.pem/g) ?? [])];
    const configs: Record<string, string[]> = {
      temporal: read(fs.readFileSync(path.join(root, 'docker/temporal-config.yaml'), 'utf8')),
      edge: read(entryConfig({ ...COMPOSE_ENTRY, maxBodyBytes: DEFAULT_MAX_BODY_BYTES })),
    };
    for (const [name, folder] of Object.entries(FOLDERS))
      if (!configs[folder]) configs[folder] = read(JSON.stringify(services[name].environment));
    for (const [folder, wanted] of Object.entries(configs)) {
      expect([folder, wanted.length > 0]).toEqual([folder, true]);
      for (const file of wanted)
        expect([folder, file, fs.existsSync(path.join(out(), folder, file.slice(5)))]).toEqual([folder, file, true]);
    }
  });
});
