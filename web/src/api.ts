/**
 * The dashboard's only way to the service: the public management API (docs/api.md), with the
 * admin token a person pasted at sign-in, kept for the browser session only (sessionStorage),
 * never in a URL. A 401 forgets it, and the dashboard returns to sign-in.
 */

const TOKEN_KEY = 'admin-token';

export const session = {
  token: (): string | null => sessionStorage.getItem(TOKEN_KEY),
  signIn: (token: string) => sessionStorage.setItem(TOKEN_KEY, token),
  signOut: () => sessionStorage.removeItem(TOKEN_KEY),
};

/** The API refused the request: its message, and the request field at fault when it names one. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

/** Hears that the token was refused (the app then shows sign-in). */
let onSignedOut: () => void = () => undefined;
export const whenSignedOut = (listener: () => void) => (onSignedOut = listener);

export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(path, {
    method,
    headers: {
      authorization: `Bearer ${session.token() ?? ''}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.status === 401) {
    session.signOut();
    onSignedOut();
    throw new ApiError(401, 'The admin token was refused');
  }
  const answer = (await res.json().catch(() => ({}))) as { error?: string; field?: string };
  if (!res.ok) throw new ApiError(res.status, answer.error ?? res.statusText, answer.field);
  return answer as T;
}

// ---- What the API answers (src/api/schemas.ts) -------------------------------------------------

export type BodyFormat = 'json' | 'xml' | 'csv' | 'text';
export type Outcome = 'processed' | 'dropped' | 'rejected' | 'failed';

export interface App {
  id: string;
  name: string;
  bodyFormat: BodyFormat;
  supportsInboundTrigger: boolean;
  verification: { scheme: string } | null;
}

export interface Connection {
  id: string;
  name: string;
  hasSigningSecret: boolean;
}

export interface Robot {
  id: string;
  name: string;
  state: 'draft' | 'at_work' | 'paused' | 'stopped';
  trigger: {
    kind: 'custom' | 'stripe';
    appId?: string;
    connectionId?: string;
    identifier: string | null;
    /** Only with one robot (GET /api/robots/:id): the list leaves the URL, a credential, out. */
    card?: { webhookUrl: string | null; previousTokenExpiresAt: string | null };
  };
  steps: Array<{ name: string; type: 'compose'; template: unknown }>;
  stepsVersion: number;
  runCounts?: { total: number; running: number; succeeded: number; failed: number };
  deliveryCounts?: Record<Outcome, number>;
  lastDeliveryAt?: string | null;
}

export interface RunSummary {
  id: string;
  deliveryId: string;
  status: 'running' | 'succeeded' | 'failed';
  trigger?: unknown;
  triggerTruncated?: true;
  createdAt: string;
  finishedAt: string | null;
}

export interface Run extends RunSummary {
  robotId: string;
  trigger: unknown;
  steps: Array<{ name: string; status: string; output?: unknown; error?: string }>;
  workflowUrl: string | null;
}

export interface Delivery {
  id: string;
  robotId: string;
  receivedAt: string;
  format: BodyFormat;
  contentType: string | null;
  size: number;
  outcome: Outcome;
  runCount?: number;
  reason?: string | null;
  error?: string | null;
  replayable: boolean;
  replayOf: string | null;
  workflowUrl: string | null;
}
