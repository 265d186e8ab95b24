/**
 * An issue's id (./issues.ts), computed from what it is, so every process counts a robot's failures of
 * one cause in one document without a read (the FerretDB rule: writes by `_id`, docs/storage.md). Apart
 * from ./issues.ts because it hashes (node:crypto), which the dashboard does not bundle.
 */
import { createHash } from 'node:crypto';
import type { IssueKind } from './issues';

/** `iss_` and the first 24 hex digits of the SHA-256 of the robot, kind and reason, one a line (URL-safe). */
export function issueId(robotId: string, kind: IssueKind, reason: string): string {
  return 'iss_' + createHash('sha256').update(`${robotId}\n${kind}\n${reason}`).digest('hex').slice(0, 24);
}
