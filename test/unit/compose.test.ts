/**
 * docker-compose.yml runs what the cluster tests ran (src/launch/cluster.ts, test/cluster/): the same
 * Temporal server version, SQL plugin and history shards, the same entry config, receivers and
 * workers scaled out. Where a compose CLI exists, it validates the file.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { COMPOSE_ENTRY, entryConfig } from '../../src/launch/servers/nginx';
import {
  CLUSTER_HISTORY_SHARDS,
  composeTemporalConfig,
  dynamicConfig,
  SQL_PLUGIN,
} from '../../src/launch/servers/temporal-server-config';
import { DEFAULT_MAX_BODY_BYTES } from '../../src/domain/limits';

const root = path.join(__dirname, '../..');
const composeFile = path.join(root, 'docker-compose.yml');
type Service = {
  image?: string;
  environment?: Record<string, unknown>;
  deploy?: { replicas?: number };
  ports?: string[];
  profiles?: string[];
  healthcheck?: { test?: string[] };
  depends_on?: Record<string, { condition: string }> | string[];
  volumes?: string[];
};
const compose = parse(fs.readFileSync(composeFile, 'utf8'), { merge: true }) as { services: Record<string, Service> };
const services = compose.services;

/** The version scripts/cluster-binaries.sh builds (`v1.32.0`). */
const builtVersion = /TEMPORAL_SERVER_VERSION:-v([\d.]+)/.exec(
  fs.readFileSync(path.join(root, 'scripts/cluster-binaries.sh'), 'utf8'),
)![1];

it('runs the Temporal server version the cluster builds, with the cluster config: PostgreSQL, shards, mutual TLS', () => {
  expect(services.temporal.image).toBe(`temporalio/server:${builtVersion}`);
  const temporal = services.temporal as Service & { volumes?: string[]; command?: string[] };
  const mounted = temporal.volumes?.find((v) => v.startsWith('./docker/temporal-config.yaml:'));
  expect(mounted?.split(':')[1]).toBe('/etc/webhooks/temporal/compose.yaml');
  expect(temporal.command).toEqual(expect.arrayContaining(['--root', '/etc/webhooks', '--env', 'compose']));
  const config = fs.readFileSync(path.join(root, 'docker/temporal-config.yaml'), 'utf8');
  expect(config).toBe(composeTemporalConfig());
  // The same shape as the cluster's: its SQL plugin, its shards, its frontend taking mutual TLS only.
  expect(config).toContain(`"pluginName": "${SQL_PLUGIN}"`);
  expect(config).toContain(`"numHistoryShards": ${CLUSTER_HISTORY_SHARDS}`);
  expect(config).toContain('"requireClientAuth": true');
  // Its own schema tool, of the same version, makes the schema: not the development image auto-setup.
  expect(services['temporal-schema'].image).toBe(`temporalio/admin-tools:${builtVersion}`);
  expect(fs.readFileSync(composeFile, 'utf8')).not.toContain('auto-setup');
});

it("gives Temporal the cluster's dynamic config (ID length, events caches, fair dispatch)", () => {
  const temporal = services.temporal as Service & { volumes?: string[] };
  const mounted = temporal.volumes?.find((v) => v.startsWith('./docker/temporal-dynamicconfig.yaml:'));
  expect(mounted?.split(':')[1]).toBe('/etc/webhooks/dynamicconfig.yaml');
  expect(composeTemporalConfig()).toContain('"filepath": "/etc/webhooks/dynamicconfig.yaml"');
  expect(fs.readFileSync(path.join(root, 'docker/temporal-dynamicconfig.yaml'), 'utf8')).toBe(dynamicConfig(true));
});

it('takes TLS everywhere: at the entry, and the services, the Web UI and the namespace set-up to Temporal (review #1, #17)', () => {
  expect(entryConfig({ ...COMPOSE_ENTRY, maxBodyBytes: DEFAULT_MAX_BODY_BYTES })).toContain('listen 3000 ssl;');
  const tls = {
    TEMPORAL_TLS_CA: '/tls/ca.pem',
    TEMPORAL_TLS_CERT: '/tls/client.pem',
    TEMPORAL_TLS_SERVER_NAME: 'temporal',
  };
  for (const name of ['receiver', 'worker', 'temporal-ui', 'temporal-namespace'])
    expect([name, services[name].environment]).toEqual([name, expect.objectContaining(tls)]);
  expect(String(services.receiver.environment?.BASE_URL)).toMatch(/^\$\{BASE_URL:-https:/);
});

it('runs the Web UI read-only, and serves it no codec key (review N6)', () => {
  expect(services['temporal-ui'].environment).toMatchObject({
    TEMPORAL_DISABLE_WRITE_ACTIONS: 'true',
    TEMPORAL_START_WORKFLOW_DISABLED: 'true',
  });
  expect(services['temporal-ui'].environment).not.toHaveProperty('TEMPORAL_CODEC_ENDPOINT');
});

it('is closed by default: only the entry is published, the Web UI and its codec endpoint on loopback', () => {
  const published = Object.entries(services).filter(([, s]) => s.ports?.length && !s.profiles);
  expect(published.map(([name]) => name).sort()).toEqual(['entry', 'receiver', 'temporal-ui']);
  expect(services.entry.ports).toEqual(['3000:3000']);
  for (const name of ['temporal-ui', 'receiver'])
    expect(services[name].ports!.every((p) => p.startsWith('127.0.0.1:'))).toBe(true);
  // The receivers' metrics port (the Web UI's codec endpoint), never their service port: that is the entry's.
  expect(services.receiver.ports!.every((p) => p.endsWith(':9463'))).toBe(true);
});

it("needs a password for Temporal's database, and has none of its own", () => {
  expect(services.postgresql.environment?.POSTGRES_PASSWORD).toBe('${POSTGRES_PASSWORD}');
  expect(fs.readFileSync(composeFile, 'utf8')).toContain('POSTGRES_PWD: ${POSTGRES_PASSWORD:?');
});

it('builds the image on a supported Node LTS with the locked dependencies, from an allowlist of files', () => {
  const dockerfile = fs.readFileSync(path.join(root, 'Dockerfile'), 'utf8');
  const nodes = [...dockerfile.matchAll(/^FROM node:(\d+)-/gm)].map((m) => Number(m[1]));
  expect(nodes.length).toBeGreaterThan(0);
  expect(nodes.every((major) => major === 22 || major === 24)).toBe(true);
  expect(dockerfile).toContain('npm ci');
  expect(dockerfile).not.toMatch(/npm install/);
  const ignore = fs.readFileSync(path.join(root, '.dockerignore'), 'utf8').split('\n');
  expect(ignore.find((l) => l && !l.startsWith('#'))).toBe('*');
});

it('runs a supported nginx (the 1.30 stable line or later)', () => {
  const [, major, minor] = /^nginx:(\d+)\.(\d+)/.exec(services.entry.image!)!.map(Number);
  expect(major * 1000 + minor).toBeGreaterThanOrEqual(1030);
});

it('runs the PostgreSQL major version the cluster tests ran on (Debian 12: 15)', () => {
  expect(services.postgresql.image).toBe('postgres:15');
});

it('puts the entry the cluster tests ran in front of 2 receivers, with 2 workers', () => {
  expect(services.receiver.deploy?.replicas).toBe(2);
  expect(services.worker.deploy?.replicas).toBe(2);
  expect(services.entry.image).toMatch(/^nginx:/);
  const conf = fs.readFileSync(path.join(root, 'docker/nginx.conf'), 'utf8');
  expect(conf).toBe(entryConfig({ ...COMPOSE_ENTRY, maxBodyBytes: DEFAULT_MAX_BODY_BYTES }));
});

/** `docker compose` (v2) or `docker-compose` (v1), whichever answers. */
function composeCli(): string[] | null {
  for (const cli of [['docker', 'compose'], ['docker-compose']]) {
    const run = spawnSync(cli[0], [...cli.slice(1), 'version'], { encoding: 'utf8' });
    if (run.status === 0) return cli;
  }
  return null;
}
const cli = composeCli();

(cli ? it : it.skip)(`is valid for ${cli?.join(' ') ?? 'a compose CLI (none here)'}`, () => {
  const out = execFileSync(cli![0], [...cli!.slice(1), '-f', composeFile, 'config', '-q'], {
    encoding: 'utf8',
    env: { ...process.env, ADMIN_TOKEN: 'x'.repeat(32), SECRETS_KEY: Buffer.alloc(32).toString('base64') },
  });
  expect(out).toBe('');
});

/** The services a plain `docker compose up` runs for good (not a one-shot job, not in a profile). */
const ONE_SHOT = ['tls', 'temporal-schema', 'temporal-namespace'];

it('checks the health of every long-running service, the receivers and workers on /healthz of their metrics ports', () => {
  for (const [name, service] of Object.entries(services))
    if (!ONE_SHOT.includes(name)) expect([name, service.healthcheck?.test?.length]).toEqual([name, expect.any(Number)]);
  expect(services.receiver.healthcheck!.test!.join(' ')).toContain("fetch('http://127.0.0.1:9463/healthz')");
  expect(services.worker.healthcheck!.test!.join(' ')).toContain("fetch('http://127.0.0.1:9464/healthz')");
  // What waits on Temporal or the receivers waits for them healthy, not merely started.
  for (const [name, on] of [
    ['entry', 'receiver'],
    ['temporal-namespace', 'temporal'],
    ['temporal-ui', 'temporal'],
    ['grafana', 'prometheus'],
  ])
    expect([name, (services[name].depends_on as Record<string, { condition: string }>)[on]]).toEqual([
      name,
      { condition: 'service_healthy' },
    ]);
});

it("starts Prometheus and Grafana in the monitoring profile only, on loopback, with the service's scrape config and dashboard", () => {
  const monitoring = Object.entries(services).filter(([, s]) => s.profiles?.includes('monitoring'));
  expect(monitoring.map(([name]) => name).sort()).toEqual(['grafana', 'prometheus']);
  for (const [, s] of monitoring) expect(s.ports!.every((p) => p.startsWith('127.0.0.1:'))).toBe(true);
  expect(services.prometheus.volumes).toContain('./docker/prometheus.yml:/etc/prometheus/prometheus.yml:ro');
  const scrape = parse(fs.readFileSync(path.join(root, 'docker/prometheus.yml'), 'utf8')) as {
    scrape_configs: Array<{ job_name: string; dns_sd_configs: Array<{ names: string[]; port: number }> }>;
  };
  expect(scrape.scrape_configs.map((c) => [c.job_name, c.dns_sd_configs[0].names, c.dns_sd_configs[0].port])).toEqual([
    ['receiver', ['receiver'], 9463],
    ['worker', ['worker'], 9464],
  ]);
  expect(services.grafana.volumes).toEqual(
    expect.arrayContaining([
      './docker/grafana/provisioning:/etc/grafana/provisioning:ro',
      './docker/grafana/dashboards:/etc/grafana/dashboards:ro',
    ]),
  );
  const datasources = fs.readFileSync(
    path.join(root, 'docker/grafana/provisioning/datasources/prometheus.yml'),
    'utf8',
  );
  expect(datasources).toContain('url: http://prometheus:9090');
});
