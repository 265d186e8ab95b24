/** Small helpers shared by the bench's files. */

export const log = (message: string) => process.stderr.write(`[bench] ${message}\n`);
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
export const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;
export const MiB = 1024 * 1024;
