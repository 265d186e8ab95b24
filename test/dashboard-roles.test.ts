/**
 * The dashboard offers each role its own controls (src/domain/workspaces.ts), in a real browser as
 * people use it (test/support/dashboard-workspaces.ts): A's owner opens A's robot with every
 * control an owner has; A's viewer reads A's robots, the robot's masked URL and its run, and is
 * offered no control that writes: neither New robot, nor the forms that create, nor Keys.
 */
import { screenshot as shot, tableRows as rows } from './support/dashboard';
import { everything, robotLink, useTwoWorkspaces, type Workspace } from './support/dashboard-workspaces';

let a: Workspace;
let viewerOfA: string;
const { signedInPage } = useTwoWorkspaces((opened) => {
  ({ a, viewerOfA } = opened);
});

/** The robot page's write buttons (a viewer sees none; `Change` is the dedup card's). */
const ROBOT_WRITES = [
  'Put to work',
  'Pause',
  'Resume',
  'Stop',
  'Rotate token',
  'Send test delivery',
  'Rename',
  'Edit steps',
  'Edit rules',
  'Change',
];

describe("A's owner", () => {
  const person = signedInPage(() => a.owner.key);

  it("opens A's robot: its URL, its run, and the controls an owner has", async () => {
    await robotLink(person.page, 'Invoices of A').click();
    await person.page.getByRole('heading', { name: 'Invoices of A' }).waitFor();
    const card = person.page.getByRole('region', { name: 'Trigger step' });
    expect(await card.getByLabel('Webhook URL').textContent()).toBe(a.robot.webhookUrl);
    await card.getByRole('button', { name: 'Copy URL' }).waitFor();
    await rows(person.page, 'Run history').getByRole('link', { name: 'succeeded' }).waitFor();
    await rows(person.page, 'Deliveries')
      .getByRole('button', { name: /^Replay delivery/ })
      .waitFor();
    await card.getByText(/^A repeat is told apart/).waitFor();
    // A robot at work offers neither.
    const writes = ROBOT_WRITES.filter((name) => name !== 'Put to work' && name !== 'Resume');
    for (const name of writes) expect(await person.page.getByRole('button', { name, exact: true }).count()).toBe(1);
  });
});

describe("A's viewer", () => {
  const person = signedInPage(() => viewerOfA);

  it("sees A's robots, but neither New robot, nor the forms that create, nor Keys", async () => {
    await robotLink(person.page, 'Invoices of A').waitFor();
    await person.page.getByRole('link', { name: 'Audit log' }).waitFor();
    expect(await person.page.getByRole('button', { name: 'New robot' }).count()).toBe(0);
    for (const form of ['New robot', 'New app', 'New payment connection'])
      expect(await person.page.getByRole('form', { name: form }).count()).toBe(0);
    expect(await person.page.getByRole('link', { name: 'Keys' }).count()).toBe(0);
    expect(await person.page.getByLabel('Signed in').textContent()).toContain('(viewer) in Workspace A');
  });

  it("reads A's robot, its masked URL and run, with no button that would change anything", async () => {
    await robotLink(person.page, 'Invoices of A').click();
    await person.page.getByRole('heading', { name: 'Invoices of A' }).waitFor();
    // The URL's token is the senders' credential: a viewer sees its last 4 characters only, and cannot copy it.
    const token = a.robot.webhookUrl.split('/').pop()!;
    const masked = a.robot.webhookUrl.replace(token, `…${token.slice(-4)}`);
    expect(await person.page.getByLabel('Webhook URL').textContent()).toBe(masked);
    await person.page.getByText('Its token is masked: editors, owners and the admin see the URL.').waitFor();
    expect(await person.page.getByRole('button', { name: 'Copy URL' }).count()).toBe(0);
    expect(await person.page.getByLabel('curl example').count()).toBe(0);
    await rows(person.page, 'Run history').getByRole('link', { name: 'succeeded' }).waitFor();
    await rows(person.page, 'Deliveries').filter({ hasText: 'processed' }).waitFor();
    await person.page.getByRole('heading', { name: 'Trigger rules' }).waitFor();
    await person.page
      .getByRole('region', { name: 'Trigger step' })
      .getByText(/^A repeat is told apart/)
      .waitFor();
    for (const name of ROBOT_WRITES)
      expect(await person.page.getByRole('button', { name, exact: true }).count()).toBe(0);
    expect(await person.page.getByRole('button', { name: /^Replay/ }).count()).toBe(0);
    expect(await everything(person.page)).not.toContain(token);
    await shot(person.page, 'robot-viewer');
  });
});
