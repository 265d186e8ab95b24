/**
 * The code's dependencies point one way (docs/code-layout.md):
 * domain → core → storage → use cases → activities and workflows → entry points; no import cycles;
 * the bench imports limits and services, never workflow or activity code.
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
      'src/http.ts',
      'src/temporal.ts',
      'src/payload-codec.ts',
      'src/throttle.ts',
      'src/sdk-log.ts',
      'src/search-attribute-setup.ts',
      'src/dashboard.ts',
    ],
  },
  { name: 'storage', paths: ['src/storage/', 'src/history/'] },
  {
    name: 'use cases',
    paths: ['src/deliveries/', 'src/runs/', 'src/robots/', 'src/receiver/', 'src/api/', 'src/codec-routes.ts'],
  },
  { name: 'activities and workflows', paths: ['activities/', 'workflows/'] },
  { name: 'entry points', paths: ['src/app.ts', 'src/worker.ts', 'src/entry/', 'src/embedded/', 'src/cluster/'] },
];

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

it('imports only from its own layer or a lower one', () => {
  const upward = code.flatMap((f) =>
    graph
      .get(f)!
      .filter((to) => layerOf(to) > layerOf(f))
      .map((to) => `${f} (${LAYERS[layerOf(f)].name}) imports ${to} (${LAYERS[layerOf(to)].name})`),
  );
  expect(upward).toEqual([]);
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
