/**
 * A page's cursor that this service did not make: the history's pages (src/history/reads.ts), the
 * robots directory's and the audit log's (src/workspaces/) throw it, and the API answers 400
 * naming `cursor` (src/api/lookups.ts, `pageOf`). Imports nothing.
 */
export class BadCursor extends Error {
  constructor() {
    super('not a cursor returned by this API');
    this.name = 'BadCursor';
  }
}
