/**
 * How much one workspace may hold (defaults of MAX_ROBOTS_PER_WORKSPACE and MAX_APPS_PER_WORKSPACE).
 * Every receiver and the robots directory keep a workspace's robots in memory, the dashboard pages
 * through them, and each robot's URL is a share of fair dispatch and of the fan-out quota: a key of
 * one workspace creating robots without end would make every process hold them and would split the
 * engine among them. The defaults are far above a real team's use (the bench's workspaces phase
 * pages 10,000 robots, 2026-11-28) and below what costs a process to keep; past one, a create is
 * refused `409` naming the setting, and nothing else changes.
 */

/** Robots of one workspace, drafts, paused and stopped ones included. */
export const DEFAULT_MAX_ROBOTS_PER_WORKSPACE = 10_000;
/** Apps of one workspace: an app serves many robots, so a tenth of them. */
export const DEFAULT_MAX_APPS_PER_WORKSPACE = 1_000;
