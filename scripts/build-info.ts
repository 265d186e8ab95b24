/**
 * Run by `npm run build`: writes dist/build-info.json with the commit the build is made from, for
 * `webhooks_build_info{revision}` (src/core/build-info.ts). WEBHOOKS_REVISION when set (an image built
 * without the .git folder: `docker build --build-arg WEBHOOKS_REVISION=$(git rev-parse --short=12 HEAD)`),
 * else git's HEAD (its first 12 hex digits), else `unknown`.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { BUILD_INFO_FILE, REVISION } from '../src/core/build-info';

function revision(): string {
  const given = process.env.WEBHOOKS_REVISION;
  if (given) {
    if (!REVISION.test(given))
      throw new Error(`WEBHOOKS_REVISION is '${given}': expected up to 39 letters, digits, '.', '_', '+' or '-'`);
    return given;
  }
  try {
    const head = execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], {
      cwd: __dirname,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    return REVISION.test(head) ? head : 'unknown';
  } catch {
    return 'unknown'; // no git, or not a checkout
  }
}

try {
  fs.writeFileSync(BUILD_INFO_FILE, `${JSON.stringify({ revision: revision() })}\n`);
} catch (err) {
  console.error((err as Error).message);
  process.exit(1);
}
