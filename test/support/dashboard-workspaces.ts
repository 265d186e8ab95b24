/**
 * Two workspaces on the dashboard, for its workspace tests (test/dashboard-workspace-isolation.test.ts,
 * dashboard-roles.test.ts, dashboard-keys-and-audit.test.ts): the real service and Debian's chromium
 * driven by playwright-core (as ./dashboard.ts). The admin makes workspaces A and B with keys, and a
 * robot at work in each, through the API; each person then signs in, in a browser context of their own.
 */
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { apiClient, robotAtWork, type ApiClient, type RobotAtWork } from '../../src/client/api-client';
import type { Role } from '../../src/domain/workspaces';
import { waitFor } from '../../src/launch/os/wait';
import { startStack, type Stack } from './stack';

const SCREENSHOTS = path.resolve(__dirname, '..', '..', '.data', 'screenshots');

export interface Workspace {
  id: string;
  name: string;
  owner: { id: string; key: string; client: ApiClient };
  robot: RobotAtWork;
}

/** What the tests of a file read: the stack, and what the admin made on it. */
export interface TwoWorkspaces {
  stack: Stack;
  a: Workspace;
  b: Workspace;
  viewerOfA: string;
  /** A's second robot, never put to work (for the search). */
  refundsOfA: string;
  /** The run of A's robot, on a delivery whose `name` is "Ann". */
  runOfA: string;
}

/**
 * Before a file's tests: a stack and a browser, workspace A (Invoices of A at work, run once on
 * `{"name":"Ann"}`, and Refunds of A; an owner's and a viewer's key) and B (Payroll of B at work;
 * an owner's key), which `opened` hears; closed after them. Answers `signedInPage`: a person's page
 * for the tests of the describe block that calls it.
 */
export function useTwoWorkspaces(opened: (workspaces: TwoWorkspaces) => void): {
  signedInPage(credential: () => string): { page: Page };
} {
  let stack: Stack | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    const executablePath = process.env.CHROMIUM_BIN;
    if (!executablePath) throw new Error('CHROMIUM_BIN is not set: run the tests with `npm test` (scripts/browser.sh)');
    stack = await startStack();
    const service = stack;
    browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
    fs.mkdirSync(SCREENSHOTS, { recursive: true });

    const key = async (workspaceId: string, name: string, role: Role) => {
      const made = await service.client.call('createKey', { params: { id: workspaceId }, body: { name, role } });
      return { ...made, client: apiClient(service.baseUrl, made.key) };
    };
    const workspace = async (name: string, robotName: string): Promise<Workspace> => {
      const { id } = await service.client.call('createWorkspace', { body: { name } });
      const owner = await key(id, `Owner of ${name}`, 'owner');
      const robot = await robotAtWork(owner.client, {
        template: { hello: '{{trigger.name}}' },
        appName: `Orders of ${name}`,
        robotName,
        stepName: 'greet',
      });
      return { id, name, owner, robot };
    };
    const a = await workspace('Workspace A', 'Invoices of A');
    const b = await workspace('Workspace B', 'Payroll of B');
    const viewerOfA = (await key(a.id, 'Viewer of A', 'viewer')).key;
    const refunds = await a.owner.client.call('createRobot', {
      body: {
        name: 'Refunds of A',
        trigger: { appId: a.robot.appId },
        steps: [{ name: 'greet', type: 'compose', template: { hello: 'refund' } }],
      },
    });
    expect((await service.send('POST', a.robot.webhookUrl, '{"name":"Ann"}')).status).toBe(200);
    const { runs } = await waitFor(
      () => a.owner.client.call('listRuns', { params: { id: a.robot.robotId } }),
      (page) => page.runs.length === 1 && page.runs[0].status === 'succeeded',
    );
    opened({ stack: service, a, b, viewerOfA, refundsOfA: refunds.id, runOfA: runs[0].id });
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  /** A person's own browser (a context: its own session storage), signed in with `credential`. */
  async function signedIn(credential: string): Promise<Page> {
    const context = await browser!.newContext({ viewport: { width: 1200, height: 1000 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack!.baseUrl });
    const page = await context.newPage();
    await page.goto(stack!.baseUrl + '/');
    await page.getByLabel('Key or admin token').fill(credential);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Robots' }).waitFor();
    return page;
  }

  return {
    signedInPage(credential) {
      const person = {} as { page: Page };
      beforeAll(async () => {
        person.page = await signedIn(credential());
      });
      afterAll(() => person.page.context().close());
      return person;
    },
  };
}

/** A robot's link in the robots list. */
export const robotLink = (page: Page, name: string) =>
  page.getByRole('table', { name: 'Robots' }).getByRole('link', { name, exact: true });
/** The whole page as text and markup: what a person could see or find in it. */
export const everything = (page: Page) => page.content();
