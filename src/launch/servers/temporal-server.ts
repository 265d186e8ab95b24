/**
 * The cluster's Temporal (docs/cluster.md): Temporal server (the version scripts/cluster-binaries.sh
 * builds; the same as docker-compose.yml's) with its four services in one process, its history and
 * its visibility in PostgreSQL, CLUSTER_HISTORY_SHARDS history shards, and no archival. Its schema is
 * created on first start and migrated to the binary's latest on every start, by temporal-sql-tool.
 * The namespace is registered with the dedup window as retention, then the service's search
 * attributes are added, and the server is ready once a visibility query naming them is answered.
 *
 * Closed by default: its frontend takes mutual TLS only (./tls.ts; its services talk to each other
 * on loopback in the clear), and it reaches PostgreSQL with a password (./postgres.ts). Its config
 * file (./temporal-server-config.ts), which holds that password, is readable by its owner only.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time';
import { DEDUP_WINDOW } from '../../domain/dedup';
import { SEARCH_ATTRIBUTES } from '../../domain/search-attributes';
import { spawnManaged, waitForPort, type ManagedProcess } from '../os/managed-process';
import { freePorts, portsFree } from '../os/ports';
import { ensureSearchAttributes } from '../../temporal/search-attribute-setup';
import type { Logger } from '../../core/log';
import { POSTGRES_ROLE, psql } from './postgres';
import type { ClusterTls } from './tls';
import { temporalTls } from '../../temporal/client';
import {
  SQL_PLUGIN,
  temporalServerPorts,
  TemporalServerOptions,
  dynamicConfig,
  DATABASES,
  temporalServerConfig,
  clusterPlacement,
} from './temporal-server-config';

/** Fair dispatch on, as in the dev server: for good once its classic task table was empty at a start. */
async function fairDispatch(o: TemporalServerOptions): Promise<boolean> {
  const marker = path.join(o.dir, 'fair-dispatch');
  if (fs.existsSync(marker)) return true;
  const classic = Number((await psql(o.postgres, DATABASES[0].name, 'select count(*) from tasks')).trim());
  if (classic > 0) return false;
  fs.writeFileSync(marker, '');
  return true;
}

function sqlTool(o: TemporalServerOptions, database: string, args: string[]): Promise<void> {
  const global = ['--plugin', SQL_PLUGIN, '--endpoint', '127.0.0.1', '--port', String(o.postgres.port)];
  const argv = [...global, '--user', POSTGRES_ROLE, '--database', database, '--quiet', ...args];
  // The password in its environment, not its arguments (which every user of the machine can list).
  const env = { ...process.env, SQL_PASSWORD: o.postgres.password };
  return new Promise((resolve, reject) =>
    execFile(o.sqlToolBin, argv, { encoding: 'utf8', env }, (err, _out, stderr) =>
      err ? reject(new Error(`temporal-sql-tool ${args[0]} ${database}: ${stderr.trim() || err.message}`)) : resolve(),
    ),
  );
}

/** Creates the two databases and their schema when missing, and migrates both to the binary's latest. */
export async function prepareTemporalSchema(o: TemporalServerOptions): Promise<void> {
  for (const db of DATABASES) {
    const exists = (await psql(o.postgres, 'postgres', `select 1 from pg_database where datname = '${db.name}'`))
      .trim()
      .startsWith('1');
    if (!exists) {
      await sqlTool(o, db.name, ['create-database', '--defaultdb', 'postgres']);
      await sqlTool(o, db.name, ['setup-schema', '-v', '0.0']);
    }
    await sqlTool(o, db.name, ['update-schema', '--schema-name', db.schema]);
  }
}

/** Writes its config, starts it and waits for its frontend's port (see `prepareTemporalNamespace` for ready). */
export async function startTemporalServer(o: TemporalServerOptions): Promise<ManagedProcess> {
  const configDir = path.join(o.dir, 'config');
  fs.mkdirSync(configDir, { recursive: true });
  // It holds PostgreSQL's password: its owner's only.
  fs.writeFileSync(
    path.join(configDir, 'cluster.yaml'),
    JSON.stringify(temporalServerConfig(clusterPlacement(o)), null, 2),
    {
      mode: 0o600,
    },
  );
  fs.chmodSync(path.join(configDir, 'cluster.yaml'), 0o600);
  fs.writeFileSync(path.join(o.dir, 'dynamicconfig.yaml'), dynamicConfig(await fairDispatch(o)));
  const args = ['--root', o.dir, '--config', 'config', '--env', 'cluster', '--allow-no-auth', 'start'];
  const proc = spawnManaged('temporal-server', o.serverBin, args, { logFile: o.logFile });
  await waitForPort(o.ports.frontend, proc);
  return proc;
}

/**
 * Registers the namespace (retention: the dedup window) unless it exists, adds the search
 * attributes, and waits until a visibility query that names them is answered: from then on,
 * starts that set them are taken. Retries while the server is still coming up.
 */
export async function prepareTemporalNamespace(
  address: string,
  tls: ClusterTls,
  namespace: string,
  log: Logger,
  timeoutMs = 120_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const connection = await Connection.connect({ address, tls: temporalTls(clusterClientTls(tls)) });
  try {
    for (;;) {
      try {
        await connection.workflowService
          .registerNamespace({ namespace, workflowExecutionRetentionPeriod: msToTs(DEDUP_WINDOW) })
          .catch((err: Error) => {
            if (!/already exists/i.test(String(err))) throw err;
          });
        await ensureSearchAttributes(connection, namespace, log);
        const query = SEARCH_ATTRIBUTES.map((k) => `${k.name} = 'ready'`).join(' AND ');
        await connection.workflowService.countWorkflowExecutions({ namespace, query });
        return;
      } catch (err) {
        if (Date.now() > deadline)
          throw new Error(`Temporal server at ${address} did not become ready: ${(err as Error).message}`, {
            cause: err,
          });
        await new Promise((r) => setTimeout(r, 500));
      }
    }
  } finally {
    await connection.close();
  }
}

/** The client side of the cluster's TLS as the service's settings say it (TEMPORAL_TLS_*). */
export function clusterClientTls(tls: ClusterTls) {
  return {
    enabled: true,
    caFile: tls.ca,
    certFile: tls.clientCert,
    keyFile: tls.clientKey,
    serverName: tls.serverName,
  };
}

/** A frontend port whose Temporal server ports (above) are all free. */
export async function freeTemporalServerPort(): Promise<number> {
  for (;;) {
    const [frontend] = await freePorts(1);
    if (frontend < 10_300) continue;
    const others = Object.values<number>({ ...temporalServerPorts(frontend) }).filter((p) => p !== frontend);
    if (await portsFree(others)) return frontend;
  }
}
