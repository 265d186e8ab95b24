/**
 * The dashboard (web/, README "The dashboard"): its built files (web/dist, made by `npm run
 * build`) served by the receiver on the service's own port. Its pages (`/`, `/robots/:id`,
 * `/runs/:id`, `/deliveries/:id`, …) answer its index.html; `/assets/<file>` its scripts and
 * styles, kept by browsers for a year (`immutable`: their names change with their content). Every file
 * has an ETag (a hash of its content, weak since it is also sent compressed: src/core/compression.ts):
 * index.html is asked again each time (`no-cache`) and answered 304 while unchanged. Files are kept in
 * memory once read, each read again when its size or time on disk changes. Everything else goes on to the routers,
 * so the dashboard never answers for the API, the webhooks or the health routes. It needs no
 * credential to load: what it shows comes from the API, with the key or admin token a person enters.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Middleware } from 'koa';

const PAGES = [
  /^\/$/,
  /^\/robots\/[^/]+$/,
  /^\/runs\/[^/]+$/,
  /^\/deliveries\/[^/]+$/,
  /^\/keys$/,
  /^\/audit$/,
  /^\/apps$/,
  /^\/issues$/,
  /^\/settings$/,
];
const ASSET = /^\/assets\/([A-Za-z0-9_.-]+)$/;
const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

/** web/dist under the package's root, whether this runs from src/ (tests) or dist/src/. */
function dashboardDir(): string {
  let dir = __dirname;
  while (!fs.existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return path.join(dir, 'web', 'dist');
}

interface DashboardFile {
  body: Buffer;
  etag: string;
  size: number;
  mtimeMs: number;
}

/** The files read, by path: the few of web/dist, each kept until it is gone or changed on disk. */
const read = new Map<string, DashboardFile>();

async function readFile(file: string): Promise<DashboardFile> {
  let stat: fs.Stats;
  try {
    stat = await fs.promises.stat(file);
  } catch (err) {
    read.delete(file);
    throw err;
  }
  const known = read.get(file);
  if (known && known.size === stat.size && known.mtimeMs === stat.mtimeMs) return known;
  const body = await fs.promises.readFile(file);
  const etag = `W/"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  const fresh = { body, etag, size: stat.size, mtimeMs: stat.mtimeMs };
  read.set(file, fresh);
  return fresh;
}

export function serveDashboard(dir = dashboardDir()): Middleware {
  return async (ctx, next): Promise<void> => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return void (await next());
    const asset = ASSET.exec(ctx.path);
    const file = asset
      ? path.join(dir, 'assets', asset[1])
      : PAGES.some((p) => p.test(ctx.path))
        ? path.join(dir, 'index.html')
        : null;
    if (!file) return void (await next());
    let found: DashboardFile;
    try {
      found = await readFile(file);
    } catch {
      if (asset) return void (await next());
      ctx.status = 503;
      ctx.type = 'text/plain';
      ctx.body = 'The dashboard is not built: run `npm run build` (npm start does).\n';
      return;
    }
    ctx.type = asset ? (TYPES[path.extname(file)] ?? 'application/octet-stream') : 'text/html; charset=utf-8';
    ctx.set('cache-control', asset ? 'public, max-age=31536000, immutable' : 'no-cache');
    ctx.etag = found.etag;
    ctx.status = 200;
    if (ctx.fresh) ctx.status = 304;
    else ctx.body = found.body;
  };
}
