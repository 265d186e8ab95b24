/**
 * TLS at the cluster's entry (review R8): its certificate is its own, not the CA's of Temporal's
 * mutual TLS, whose key is gone once it has signed; the entry takes modern suites only; a BASE_URL
 * whose scheme is not the entry's is refused. Certificates are made by openssl, for real.
 */
import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { clusterBaseUrl } from '../../src/launch/cluster';
import { EDGE_TLS12_CIPHERS, entryConfig } from '../../src/launch/servers/nginx';
import { clusterCertificates, edgeCertificate } from '../../src/launch/servers/tls';
import { ConfigError } from '../../src/core/config';

let dir: string;
beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cluster-tls-'))));
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));
const cert = (file: string) => new X509Certificate(fs.readFileSync(file));

it("makes the entry's certificate self-signed, apart from Temporal's CA, whose key is dropped", async () => {
  const tls = await clusterCertificates(path.join(dir, 'tls'));
  const edge = await edgeCertificate(path.join(dir, 'edge-tls'));
  const ca = cert(tls.ca);
  expect(cert(edge.certFile).verify(ca.publicKey)).toBe(false);
  expect(cert(edge.certFile).checkIssued(ca)).toBe(false);
  expect(cert(edge.certFile).verify(cert(edge.certFile).publicKey)).toBe(true);
  expect(cert(edge.certFile).ca).toBe(false);
  expect(cert(edge.certFile).subjectAltName).toBe('DNS:localhost, IP Address:127.0.0.1');
  expect(fs.statSync(edge.keyFile).mode & 0o777).toBe(0o600);
  // Temporal's certificates are the CA's; nothing can sign another: its key is gone.
  for (const file of [tls.serverCert, tls.clientCert]) expect(cert(file).verify(ca.publicKey)).toBe(true);
  expect(fs.readdirSync(path.join(dir, 'tls')).sort()).toEqual(
    ['.complete', 'ca.pem', 'client-key.pem', 'client.pem', 'frontend-key.pem', 'frontend.pem'].sort(),
  );
  // Kept across starts.
  const again = await edgeCertificate(path.join(dir, 'edge-tls'));
  expect(fs.readFileSync(again.certFile, 'utf8')).toBe(fs.readFileSync(edge.certFile, 'utf8'));
});

it("drops what an earlier version kept with Temporal's certificates: the CA's key, the CA-signed entry's", async () => {
  const tlsDir = path.join(dir, 'tls');
  await clusterCertificates(tlsDir);
  for (const file of ['ca-key.pem', 'ca.srl', 'edge.pem', 'edge-key.pem'])
    fs.writeFileSync(path.join(tlsDir, file), 'x');
  const frontend = fs.readFileSync(path.join(tlsDir, 'frontend.pem'), 'utf8');
  await clusterCertificates(tlsDir);
  expect(fs.readdirSync(tlsDir).filter((f) => /^(ca-key|ca\.srl|edge)/.test(f))).toEqual([]);
  expect(fs.readFileSync(path.join(tlsDir, 'frontend.pem'), 'utf8')).toBe(frontend);
});

it('takes TLS 1.2 and 1.3 only, TLS 1.2 with ECDHE and AEAD suites only, in its own order', () => {
  const conf = entryConfig({
    listen: '3000',
    receivers: ['127.0.0.1:3001'],
    dir: '/tmp/nginx',
    errorLog: 'stderr',
    maxBodyBytes: 1024,
    tls: { certFile: '/tls/edge.pem', keyFile: '/tls/edge-key.pem' },
  });
  expect(conf).toContain('    ssl_protocols TLSv1.2 TLSv1.3;\n');
  expect(conf).toContain(`    ssl_ciphers ${EDGE_TLS12_CIPHERS.join(':')};\n`);
  expect(conf).toContain('    ssl_prefer_server_ciphers on;\n');
  // What OpenSSL makes of the list: every suite ECDHE (forward secret) with GCM or ChaCha20-Poly1305.
  const suites = execFileSync('openssl', ['ciphers', '-v', '-tls1_2', EDGE_TLS12_CIPHERS.join(':')], {
    encoding: 'utf8',
  })
    .trim()
    .split('\n')
    .filter((line) => !line.includes('TLSv1.3'));
  expect(suites).toHaveLength(EDGE_TLS12_CIPHERS.length);
  for (const suite of suites) {
    expect(suite).toMatch(/ Kx=ECDH /);
    expect(suite).toMatch(/ Enc=(AESGCM|CHACHA20\/POLY1305)\(/);
  }
});

describe("BASE_URL and the entry's scheme", () => {
  it('is https:// on localhost by default when the entry takes TLS', () => {
    expect(clusterBaseUrl(undefined, 3980, true)).toBe('https://localhost:3980');
    expect(clusterBaseUrl('https://hooks.example.com/', 3980, true)).toBe('https://hooks.example.com');
  });

  it('refuses an http:// BASE_URL in front of an HTTPS entry, naming BASE_URL', () => {
    const refused = () => clusterBaseUrl('http://127.0.0.1:3980', 3980, true);
    expect(refused).toThrow(ConfigError);
    expect(refused).toThrow(/BASE_URL: must start with https:\/\/, as the entry serves HTTPS only/);
    // And the other way round, where the entry takes plain HTTP (some cluster tests).
    expect(() => clusterBaseUrl('https://localhost:3980', 3980, false)).toThrow(/BASE_URL: must start with http:\/\//);
  });
});
