/** Issues (docs/issues.md): how often one may notify. */
import { duration } from './fields';

export const issueSettings = {
  ISSUE_NOTIFY_INTERVAL: duration('1h').describe(
    'An issue notifies when it opens or reopens, at most once in this long however many failures follow ' +
      '(`0`: at every opening and reopening) ([issues.md](issues.md))',
  ),
};
