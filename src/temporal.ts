/** The Temporal client used by the receiver and the management API. */
import { Client, Connection } from '@temporalio/client';

/** Lazy: the receiver starts (and answers 503) even while Temporal is down. */
export function createTemporalClient(address: string, namespace: string): Client {
  return new Client({ connection: Connection.lazy({ address }), namespace });
}

export async function temporalAnswers(client: Client, timeoutMs = 2000): Promise<boolean> {
  try {
    await client.withDeadline(Date.now() + timeoutMs, () => client.workflowService.getSystemInfo({}));
    return true;
  } catch {
    return false;
  }
}
