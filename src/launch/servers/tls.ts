/**
 * The cluster's Temporal frontend takes mutual TLS only (docs/cluster.md): a certificate authority
 * of its own, the frontend's certificate (for `localhost` and 127.0.0.1) and one client
 * certificate, which the receivers, the workers, Temporal's own system worker and an operator's
 * `temporal` CLI present. Made once with openssl in DATA_DIR/tls (keys readable by their owner
 * only), kept across restarts; a client without the client certificate is refused.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

/** The name the frontend's certificate is for, which clients check (TEMPORAL_TLS_SERVER_NAME). */
export const CLUSTER_TLS_SERVER_NAME = 'localhost';
/** Days the certificates last: a local cluster's, long enough never to expire under a developer. */
const DAYS = '3650';

export interface ClusterTls {
  /** The certificate authority that signed both certificates (TEMPORAL_TLS_CA). */
  ca: string;
  serverCert: string;
  serverKey: string;
  /** The client certificate and key (TEMPORAL_TLS_CERT, TEMPORAL_TLS_KEY). */
  clientCert: string;
  clientKey: string;
  serverName: string;
}

/** The environment that makes a receiver, a worker or the Temporal CLI present the client certificate. */
export function clientTlsEnv(tls: ClusterTls): NodeJS.ProcessEnv {
  return {
    TEMPORAL_TLS_CA: tls.ca,
    TEMPORAL_TLS_CERT: tls.clientCert,
    TEMPORAL_TLS_KEY: tls.clientKey,
    TEMPORAL_TLS_SERVER_NAME: tls.serverName,
  };
}

const openssl = (args: string[]) => promisify(execFile)('openssl', args);

/** A key and a certificate signed by the CA, for `name` with the extensions given. */
async function signed(dir: string, name: string, subject: string, extensions: string[]): Promise<void> {
  const key = path.join(dir, `${name}-key.pem`);
  const csr = path.join(dir, `${name}.csr`);
  const ext = path.join(dir, `${name}.ext`);
  await openssl(
    ['req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'].concat([
      '-keyout',
      key,
      '-out',
      csr,
      '-subj',
      subject,
    ]),
  );
  fs.writeFileSync(ext, `${extensions.join('\n')}\n`);
  await openssl(
    ['x509', '-req', '-in', csr, '-CA', path.join(dir, 'ca.pem'), '-CAkey', path.join(dir, 'ca-key.pem')].concat([
      '-CAcreateserial',
      '-days',
      DAYS,
      '-out',
      path.join(dir, `${name}.pem`),
      '-extfile',
      ext,
    ]),
  );
  fs.chmodSync(key, 0o600);
  fs.rmSync(csr);
  fs.rmSync(ext);
}

/**
 * The entry's certificate, signed by the cluster's CA for `localhost` and 127.0.0.1, made the
 * first time it is asked for (TLS at the edge when TLS_CERT and TLS_KEY give none; a browser or
 * `curl --cacert <dir>/ca.pem` trusts it through the CA).
 */
export async function edgeCertificate(dir: string): Promise<{ certFile: string; keyFile: string }> {
  const edge = { certFile: path.join(dir, 'edge.pem'), keyFile: path.join(dir, 'edge-key.pem') };
  if (fs.existsSync(edge.certFile) && fs.existsSync(edge.keyFile)) return edge;
  await signed(dir, 'edge', `/CN=${CLUSTER_TLS_SERVER_NAME}`, [
    `subjectAltName=DNS:${CLUSTER_TLS_SERVER_NAME},IP:127.0.0.1`,
    'extendedKeyUsage=serverAuth',
  ]);
  return edge;
}

/** The cluster's certificates in `dir`, made the first time. */
export async function clusterCertificates(dir: string): Promise<ClusterTls> {
  const tls: ClusterTls = {
    ca: path.join(dir, 'ca.pem'),
    serverCert: path.join(dir, 'frontend.pem'),
    serverKey: path.join(dir, 'frontend-key.pem'),
    clientCert: path.join(dir, 'client.pem'),
    clientKey: path.join(dir, 'client-key.pem'),
    serverName: CLUSTER_TLS_SERVER_NAME,
  };
  const complete = path.join(dir, '.complete');
  if (fs.existsSync(complete)) return tls;
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  await openssl(
    ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-days', DAYS].concat([
      '-keyout',
      path.join(dir, 'ca-key.pem'),
      '-out',
      tls.ca,
      '-subj',
      '/CN=webhook trigger service cluster CA',
    ]),
  );
  fs.chmodSync(path.join(dir, 'ca-key.pem'), 0o600);
  await signed(dir, 'frontend', `/CN=${CLUSTER_TLS_SERVER_NAME}`, [
    `subjectAltName=DNS:${CLUSTER_TLS_SERVER_NAME},IP:127.0.0.1`,
    'extendedKeyUsage=serverAuth',
  ]);
  await signed(dir, 'client', '/CN=webhook trigger service', ['extendedKeyUsage=clientAuth']);
  fs.writeFileSync(complete, '');
  return tls;
}
