/** Byte units of the limits (binary: a KiB is 1,024 bytes). */
export const KiB = 1024;
export const MiB = 1024 * KiB;
