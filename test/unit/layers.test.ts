/**
 * The code's dependencies point one way (docs/code-layout.md): the domain, the process-wide core,
 * the port's contract, the Temporal plumbing, storage (every schema and the reads by `_id`), the
 * issues' counting, the run history, the features (apps, robots, runs, deliveries), notifications, the HTTP edges
 * (receiver, API, codec), the Temporal side (activities and workflows), the composition of the
 * processes, starting things, and the process mains; no import cycles, the bench's included; the
 * bench imports the service's parts, never workflow or activity code. The sender catalog is data
 * (its files import only each other and the domain's types), and the dashboard bundles no code that
 * checks a request and nothing of src/ that is not pure.
 */
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');

/** Each layer may import its own and lower layers only. Paths are relative to the repo root. */
const LAYERS: Array<{ name: string; paths: string[] }> = [
  { name: 'domain', paths: ['src/domain/'] },
  { name: 'core', paths: ['src/core/'] },
  { name: 'contract', paths: ['src/contract/'] },
  { name: 'API client', paths: ['src/client/'] },
  { name: 'Temporal plumbing', paths: ['src/temporal/'] },
  { name: 'storage', paths: ['src/storage/'] },
  { name: 'workspaces', paths: ['src/workspaces/'] },
  { name: 'issues', paths: ['src/issues/'] },
  { name: 'history', paths: ['src/history/'] },
  { name: 'apps', paths: ['src/apps/'] },
  { name: 'robots', paths: ['src/robots/'] },
  { name: 'runs', paths: ['src/runs/'] },
  { name: 'deliveries', paths: ['src/deliveries/'] },
  { name: 'notifications', paths: ['src/notifications/'] },
  { name: 'HTTP edges', paths: ['src/receiver/', 'src/api/', 'src/codec/'] },
  { name: 'activities and workflows', paths: ['activities/', 'workflows/'] },
  { name: 'composition', paths: ['src/runtime/'] },
  { name: 'starting things', paths: ['src/launch/'] },
  { name: 'process mains', paths: ['src/entry/'] },
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
const bench = sourceFiles('bench');
const graph = new Map([...code, ...bench].map((f) => [f, importsOf(f)]));

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

// The upward imports the reviews of 2026-11-25 and 2026-11-28 found, each refused by these rules.
it.each([
  ['src/deliveries/start.ts', 'src/receiver/webhooks.ts'],
  ['src/deliveries/intake.ts', 'src/receiver/trigger-cache.ts'],
  ['src/contract/requests.ts', 'src/robots/trigger-tokens.ts'],
  ['src/contract/openapi.ts', 'src/runtime/operations.ts'],
  ['src/launch/back-ends.ts', 'src/entry/main.ts'],
  ['src/robots/settings.ts', 'src/deliveries/start.ts'],
  ['src/storage/models.ts', 'src/history/store.ts'],
  ['src/history/keeper.ts', 'src/runs/steps.ts'],
])('refuses %s importing %s', (from, to) => {
  expect(runsUp(from, to)).toBe(true);
});

/** Every import circle among `files` in the import graph `of`, each as `a → b → a`. */
function cyclesIn(files: string[], of: Map<string, string[]>): string[] {
  const cycles: string[] = [];
  const done = new Set<string>();
  const visit = (file: string, trail: string[]) => {
    if (trail.includes(file)) return void cycles.push([...trail.slice(trail.indexOf(file)), file].join(' → '));
    if (done.has(file)) return;
    for (const to of of.get(file) ?? []) visit(to, [...trail, file]);
    done.add(file);
  };
  for (const file of files) visit(file, []);
  return cycles;
}

it('has no import cycle, in the service or the bench', () => {
  expect(cyclesIn([...code, ...bench], graph)).toEqual([]);
});

it('finds a circle planted in the bench', () => {
  const planted = new Map(graph);
  planted.set('bench/settings.ts', [...(graph.get('bench/settings.ts') ?? []), 'bench/phases/ablation.ts']);
  expect(cyclesIn(bench, planted).some((c) => c.includes('bench/settings.ts'))).toBe(true);
});

it('keeps the domain free of the database, HTTP and Temporal client libraries', () => {
  const domain = code.filter((f) => layerOf(f) === 0);
  const heavy = domain.filter((f) =>
    /from '(mongoose|koa|@temporalio\/(client|worker|activity))'/.test(fs.readFileSync(path.join(ROOT, f), 'utf8')),
  );
  expect(heavy).toEqual([]);
});

it('lets the bench read limits, never workflow or activity code', () => {
  const imports = bench.flatMap((f) => graph.get(f)!.map((to) => `${f} imports ${to}`));
  expect(imports.filter((line) => / imports (workflows|activities)\//.test(line))).toEqual([]);
});

/** The project files and packages a file imports at run time (type-only imports are never bundled). */
function valueImportsOf(file: string): { files: string[]; packages: string[] } {
  const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
  const files: string[] = [];
  const packages: string[] = [];
  for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)\s(?!type\s)[^;]*?from\s+'([^']+)'/g)) {
    if (!m[1].startsWith('.')) {
      packages.push(m[1]);
      continue;
    }
    const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), m[1]));
    const resolved = [`${target}.ts`, `${target}.tsx`, `${target}/index.ts`].find((f) =>
      fs.existsSync(path.join(ROOT, f)),
    );
    if (resolved) files.push(resolved);
  }
  return { files, packages };
}

/** The files of src/ the dashboard bundles: those web/ imports at run time, and theirs, transitively. */
function bundledFromSrc(graphOf: (file: string) => { files: string[]; packages: string[] }): Set<string> {
  const web = sourceFiles('web/src').concat(
    fs
      .readdirSync(path.join(ROOT, 'web/src/pages'))
      .filter((f) => f.endsWith('.tsx'))
      .map((f) => `web/src/pages/${f}`),
    fs
      .readdirSync(path.join(ROOT, 'web/src'))
      .filter((f) => f.endsWith('.tsx'))
      .map((f) => `web/src/${f}`),
  );
  const bundled = new Set<string>();
  const visit = (file: string) => {
    for (const to of graphOf(file).files) {
      if (bundled.has(to) || !to.startsWith('src/')) continue;
      bundled.add(to);
      visit(to);
    }
  };
  for (const file of web) visit(file);
  return bundled;
}

/** What the dashboard may never bundle: the code that checks a request, and what is not pure. */
function impureBundled(graphOf: (file: string) => { files: string[]; packages: string[] }): string[] {
  const checking = /^src\/domain\/senders\/(families\/|parts\.ts|checks\.ts|handshakes\.ts)/;
  return [...bundledFromSrc(graphOf)].flatMap((file) => [
    ...(checking.test(file) ? [`${file} (checking code)`] : []),
    ...graphOf(file)
      .packages.filter((p) => p !== 'zod')
      .map((p) => `${file} imports ${p}`),
  ]);
}

it('keeps every file of the sender catalog data: it imports only the catalog and the domain types', () => {
  const catalog = sourceFiles('src/domain/senders/catalog');
  const outside = catalog.flatMap((f) =>
    (graph.get(f) ?? [])
      .filter((to) => !to.startsWith('src/domain/senders/catalog/') && to !== 'src/domain/types.ts')
      .map((to) => `${f} → ${to}`),
  );
  expect(outside).toEqual([]);
  expect(catalog.filter((f) => valueImportsOf(f).packages.length > 0)).toEqual([]);
});

it('bundles into the dashboard nothing of src/ that checks a request or is not pure, and sees a planted one', () => {
  expect(impureBundled(valueImportsOf)).toEqual([]);
  const planted = (file: string) =>
    file === 'src/domain/senders/catalog/github.ts'
      ? { files: ['src/domain/senders/families/hmac.ts'], packages: [] }
      : valueImportsOf(file);
  expect(impureBundled(planted)).toContain('src/domain/senders/families/hmac.ts (checking code)');
});
