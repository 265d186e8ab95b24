/**
 * What the issue operations (./issue-operations.ts) take and answer (src/domain/issues.ts,
 * docs/issues.md); ./requests.ts and ./answers.ts gather them with the rest.
 */
import { z } from 'zod';
import { ISSUE_KINDS, ISSUE_STATUSES } from '../domain/issues';
import { ISSUES_PAGE, ISSUES_PAGE_MAX } from '../domain/limits';
import { answer, time } from './answer-shape';

/** A page of the workspace's issues, newest failure first: of one status and one robot, when given. */
const issuesQuery = z.object({
  limit: z.coerce.number().int().min(1).max(ISSUES_PAGE_MAX).default(ISSUES_PAGE),
  cursor: z.string().max(500).optional(),
  status: z.enum(ISSUE_STATUSES).optional(),
  robotId: z.string().min(1).max(100).optional(),
});

/**
 * An issue: a robot's failures of one kind and reason, how many and when, and its status (computed:
 * `resolved` until a failure comes after its resolve).
 */
const issueAnswer = answer({
  id: z.string(),
  robotId: z.string(),
  /** The robot's name as it is now; null when it has none in the workspace's directory. */
  robotName: z.string().nullable(),
  kind: z.enum(ISSUE_KINDS),
  /** `signature`, `stale_time`, `missing_header`, `wrong_token`, `throttled`, `unparsable`, `over_cap`, … */
  reason: z.string(),
  count: z.number().int(),
  firstSeen: time,
  lastSeen: time,
  status: z.enum(ISSUE_STATUSES),
  acknowledgedAt: time.nullable(),
  resolvedAt: time.nullable(),
  /** The newest delivery counted (a failed run's delivery); null when only throttled ones were. */
  lastDeliveryId: z.string().nullable(),
  /** The API path of what it counted: the robot's deliveries of the outcome, or its runs. */
  deliveriesUrl: z.string(),
});
const issuesPageAnswer = answer({ issues: z.array(issueAnswer), nextCursor: z.string().nullable() });

export const ISSUE_QUERIES = { IssuesPage: issuesQuery } satisfies Record<string, z.ZodObject>;

/** Their schemas, by the name they have in the OpenAPI document. */
export const ISSUE_ANSWERS = { Issue: issueAnswer, IssuesPage: issuesPageAnswer } satisfies Record<
  string,
  z.ZodTypeAny
>;

export type IssueAnswer = z.output<typeof issueAnswer>;
