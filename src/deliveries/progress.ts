/**
 * How a long piece of work reports progress and resumes, without knowing it runs in a Temporal
 * activity: activities/index.ts makes one from the activity's context.
 */
export interface Progress {
  /** What an earlier attempt last reported (undefined on a first attempt). */
  readonly resumed: unknown;
  /** Reports that the work is alive, with details a retry resumes from. */
  beat(details?: unknown): void;
}
