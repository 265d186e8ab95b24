/**
 * A workspace as the workspace tests make it (test/workspace-isolation.test.ts, keys-and-roles.test.ts,
 * audit-log.test.ts): made by the admin, with an owner's key and its client, and more keys on demand.
 */
import { apiClient, robotAtWork, type ApiClient, type RobotAtWork } from '../../src/client/api-client';
import type { Role } from '../../src/domain/workspaces';
import { startStack, type Stack } from './stack';

/** A workspace made by the admin, with an owner's key and its client. */
export interface Tenant {
  id: string;
  ownerKey: string;
  owner: ApiClient;
  keyOf(role: Role, name?: string): Promise<{ id: string; key: string; client: ApiClient }>;
}

/** Workspace `name`, made by the admin of `stack`, and its owner's key (named `owner of <name>`). */
export async function tenant(stack: Stack, name: string): Promise<Tenant> {
  const { id } = await stack.client.call('createWorkspace', { body: { name } });
  const keyOf = async (role: Role, keyName = `${role} of ${name}`) => {
    const made = await stack.client.call('createKey', { params: { id }, body: { name: keyName, role } });
    return { ...made, client: apiClient(stack.baseUrl, made.key) };
  };
  const owner = await keyOf('owner');
  return { id, ownerKey: owner.key, owner: owner.client, keyOf };
}

/** A test file's own stack, and workspace A with a robot at work in it; filled in before the file's tests. */
export interface WorkspaceA {
  stack: Stack;
  a: Tenant;
  robot: RobotAtWork;
}

/** Starts the file's stack and makes workspace A and its robot before its tests; closes the stack after. */
export function useWorkspaceA(): WorkspaceA {
  const made = {} as WorkspaceA;
  beforeAll(async () => {
    made.stack = await startStack();
    made.a = await tenant(made.stack, 'A');
    made.robot = await robotAtWork(made.a.owner, {
      template: { n: '{{trigger.n}}' },
      robotName: `Robot of ${made.a.id}`,
    });
  });
  afterAll(() => made.stack?.close());
  return made;
}
