/**
 * `npm run screenshots` (scripts/screenshots.ts) against a running service: it makes its example
 * through the API and writes the dashboard's four pictures, each a PNG of the page it names, after
 * walking the quickstart's dashboard path (docs/quickstart.md) for its four.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startStack, type Stack } from './support/stack';
import { takeScreenshots } from '../scripts/screenshots';
import { QUICKSTART } from '../scripts/quickstart-shots';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

it("writes the robots, apps, robot and inspector pictures from the running service's own pages", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'screenshots-'));
  const files = await takeScreenshots({ baseUrl: stack.baseUrl, adminToken: stack.config.adminToken, dir });
  expect(files.map((f) => path.basename(f))).toEqual([
    'quickstart-sign-in.png',
    'quickstart-new-robot.png',
    'quickstart-card.png',
    'quickstart-history.png',
    'dashboard-robots.png',
    'dashboard-apps.png',
    'dashboard-robot.png',
    'dashboard-inspector.png',
  ]);
  for (const file of files) expect(fs.readFileSync(file).subarray(1, 4).toString()).toBe('PNG');
  // What it showed was made through the API: the example robot and its refused delivery.
  const { robots } = (await stack.api('GET', '/api/robots')).body;
  expect(robots.map((r: { name: string }) => r.name)).toContain('Deploy on push');
});

it("walks the quickstart's dashboard path to a run of the body it sent", async () => {
  // The walk above made the quickstart's robot in the dashboard, put it to work and sent it its body.
  const { robots } = (await stack.api('GET', '/api/robots')).body;
  const robot = robots.find((r: { name: string }) => r.name === QUICKSTART.robot);
  expect(robot).toEqual(expect.objectContaining({ state: 'at_work' }));
  const { runs } = (await stack.api('GET', `/api/robots/${robot.id}/runs`)).body;
  expect(runs).toEqual([expect.objectContaining({ status: 'succeeded', trigger: QUICKSTART.body })]);
});
