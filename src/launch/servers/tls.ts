/**
 * The cluster's Temporal frontend takes mutual TLS only (docs/cluster.md): a certificate authority
 * of its own, the frontend's certificate (for `localhost` and 127.0.0.1) and one client
 * certificate, which the receivers, the workers, Temporal's own system worker and an operator's
 * `temporal` CLI present. Made once with openssl in DATA_DIR/tls (keys readable by their owner
 * only), kept across restarts; a client without the client certificate is refused. The CA's key
 * is dropped once they are made (nothing signs again), so no process of the cluster can mint a
 * certificate.
 *
 * The entry's certificate is not the internal CA's (review R8): one of its own, self-signed, in
 * DATA_DIR/edge-tls, so whoever trusts it (`curl --cacert`) trusts nothing else.
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

/** Who signs a certificate: the cluster's CA, or its own key (self-signed). */
type Signer = { ca: string; caKey: string } | 'self';

/** A key `<name>-key.pem` and a certificate `<name>.pem` in `dir`, signed as `signer` says. */
async function signed(dir: string, name: string, subject: string, extensions: string[], signer: Signer) {
  const key = path.join(dir, `${name}-key.pem`);
  const csr = path.join(dir, `${name}.csr`);
  const ext = path.join(dir, `${name}.ext`);
  await openssl(
    ['req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-subj', subject].concat([
      '-keyout',
      key,
      '-out',
      csr,
    ]),
  );
  fs.chmodSync(key, 0o600);
  fs.writeFileSync(ext, `${extensions.join('\n')}\n`);
  const by = signer === 'self' ? ['-signkey', key] : ['-CA', signer.ca, '-CAkey', signer.caKey, '-CAcreateserial'];
  const out = ['-days', DAYS, '-out', path.join(dir, `${name}.pem`), '-extfile', ext];
  await openssl(['x509', '-req', '-in', csr].concat(by, out));
  fs.rmSync(csr);
  fs.rmSync(ext);
}

/** A server certificate's extensions, for `localhost` and 127.0.0.1 (no CA, so it signs nothing). */
const SERVER_EXTENSIONS = [
  `subjectAltName=DNS:${CLUSTER_TLS_SERVER_NAME},IP:127.0.0.1`,
  'extendedKeyUsage=serverAuth',
  'basicConstraints=critical,CA:FALSE',
];

/**
 * The entry's certificate, self-signed for `localhost` and 127.0.0.1, made in `dir` the first time
 * it is asked for (TLS at the edge when TLS_CERT and TLS_KEY give none; a browser or
 * `curl --cacert <dir>/edge.pem` trusts it, and through it nothing else).
 */
export async function edgeCertificate(dir: string): Promise<{ certFile: string; keyFile: string }> {
  const edge = { certFile: path.join(dir, 'edge.pem'), keyFile: path.join(dir, 'edge-key.pem') };
  if (fs.existsSync(edge.certFile) && fs.existsSync(edge.keyFile)) return edge;
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  await signed(dir, 'edge', `/CN=${CLUSTER_TLS_SERVER_NAME}`, SERVER_EXTENSIONS, 'self');
  return edge;
}

/**
 * Files an earlier version kept in the certificates' folder: the CA's key, and an entry
 * certificate the CA signed. Removed at every start.
 */
const DROPPED = ['ca-key.pem', 'ca.srl', 'edge.pem', 'edge-key.pem'];

/** The cluster's certificates in `dir`, made the first time (the CA's key dropped once they are). */
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
  if (!fs.existsSync(complete)) {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const ca = { ca: tls.ca, caKey: path.join(dir, 'ca-key.pem') };
    await openssl(
      ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'].concat([
        '-days',
        DAYS,
        '-keyout',
        ca.caKey,
        '-out',
        tls.ca,
        '-subj',
        '/CN=webhook trigger service cluster CA',
      ]),
    );
    fs.chmodSync(ca.caKey, 0o600);
    await signed(dir, 'frontend', `/CN=${CLUSTER_TLS_SERVER_NAME}`, SERVER_EXTENSIONS, ca);
    await signed(dir, 'client', '/CN=webhook trigger service', ['extendedKeyUsage=clientAuth'], ca);
    fs.writeFileSync(complete, '');
  }
  for (const file of DROPPED) fs.rmSync(path.join(dir, file), { force: true });
  return tls;
}
