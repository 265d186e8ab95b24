/**
 * The code's dependencies point one way (docs/code-layout.md): the domain, then the core, storage
 * (every schema and the reads by `_id`), the run history, then the features (robots, runs,
 * deliveries), the HTTP edges (receiver, API), the Temporal side (activities and workflows), and
 * the entry points; no import cycles; the bench imports limits and services, never workflow or
 * activity code.
 */
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');

/** Each layer may import its own and lower layers only. Paths are relative to the repo root. */
const LAYERS: Array<{ name: string; paths: string[] }> = [
  { name: 'domain', paths: ['src/domain/'] },
  {
    name: 'core',
    paths: [
      'src/log.ts',
      'src/metrics.ts',
      'src/config.ts',
      'src/config-secrets.ts',
      'src/http.ts',
      'src/temporal.ts',
      'src/temporal-connection.ts',
      'src/payload-codec.ts',
      'src/throttle.ts',
      'src/client-address.ts',
      'src/failure-converter.ts',
      'src/background.ts',
      'src/sdk-log.ts',
      'src/search-attribute-setup.ts',
      'src/dashboard.ts',
    ],
  },
  { name: 'storage', paths: ['src/storage/'] },
  { name: 'history', paths: ['src/history/'] },
  { name: 'robots', paths: ['src/robots/'] },
  { name: 'runs', paths: ['src/runs/'] },
  { name: 'deliveries', paths: ['src/deliveries/'] },
  { name: 'HTTP edges', paths: ['src/receiver/', 'src/api/', 'src/codec-routes.ts'] },
  { name: 'activities and workflows', paths: ['activities/', 'workflows/'] },
  {
    name: 'entry points',
    paths: ['src/app.ts', 'src/worker.ts', 'src/runtime/', 'src/entry/', 'src/embedded/', 'src/cluster/'],
  },
];

/**
 * The one import that runs up the layers on purpose: the delivery's workflow contract starts and
 * signals its workflow by reference to its definition, as a Temporal client does (loaded, never run).
 */
const ALLOWED_UP = new Set(['src/deliveries/contract.ts → workflows/delivery.ts']);

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.posix.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(rel);
    return e.name.endsWith('.ts') ? [rel] : [];
  });
}

/** The project files a file imports (relative imports, type-only ones included). */
function importsOf(file: string): string[] {
  const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
  const found: string[] = [];
  for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+'(\.[^']+)'/g)) {
    const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), m[1]));
    const resolved = [`${target}.ts`, `${target}/index.ts`].find((f) => fs.existsSync(path.join(ROOT, f)));
    if (resolved) found.push(resolved);
  }
  return found;
}

const layerOf = (file: string) => LAYERS.findIndex((l) => l.paths.some((p) => file === p || file.startsWith(p)));
const code = ['src', 'activities', 'workflows'].flatMap(sourceFiles);
const graph = new Map(code.map((f) => [f, importsOf(f)]));

it('places every source file in a layer', () => {
  expect(code.filter((f) => layerOf(f) === -1)).toEqual([]);
});

const runsUp = (from: string, to: string) => layerOf(to) > layerOf(from) && !ALLOWED_UP.has(`${from} → ${to}`);

it('imports only from its own layer or a lower one', () => {
  const upward = code.flatMap((f) =>
    graph
      .get(f)!
      .filter((to) => runsUp(f, to))
      .map((to) => `${f} (${LAYERS[layerOf(f)].name}) imports ${to} (${LAYERS[layerOf(to)].name})`),
  );
  expect(upward).toEqual([]);
});

// The upward imports the review of 2026-11-25 found, each refused by these rules.
it.each([
  ['src/deliveries/start.ts', 'src/receiver/take-delivery.ts'],
  ['src/robots/settings.ts', 'src/deliveries/start.ts'],
  ['src/storage/models.ts', 'src/history/store.ts'],
  ['src/history/keeper.ts', 'src/runs/steps.ts'],
])('refuses %s importing %s', (from, to) => {
  expect(runsUp(from, to)).toBe(true);
});

it('has no import cycle', () => {
  const cycles: string[] = [];
  const done = new Set<string>();
  const visit = (file: string, trail: string[]) => {
    if (trail.includes(file)) return void cycles.push([...trail.slice(trail.indexOf(file)), file].join(' → '));
    if (done.has(file)) return;
    for (const to of graph.get(file) ?? []) visit(to, [...trail, file]);
    done.add(file);
  };
  for (const file of code) visit(file, []);
  expect(cycles).toEqual([]);
});

it('keeps the domain free of the database, HTTP and Temporal client libraries', () => {
  const domain = code.filter((f) => layerOf(f) === 0);
  const heavy = domain.filter((f) =>
    /from '(mongoose|koa|@temporalio\/(client|worker|activity))'/.test(fs.readFileSync(path.join(ROOT, f), 'utf8')),
  );
  expect(heavy).toEqual([]);
});

it('lets the bench read limits, never workflow or activity code', () => {
  const bench = sourceFiles('bench').flatMap((f) => importsOf(f).map((to) => `${f} imports ${to}`));
  expect(bench.filter((line) => / imports (workflows|activities)\//.test(line))).toEqual([]);
});
