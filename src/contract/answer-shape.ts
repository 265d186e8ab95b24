/** How every answer of the port is described: exactly its fields, and times as ISO 8601. Imports zod only. */
import { z } from 'zod';

/** An answer has exactly the fields described: a field the document does not name is a bug (test/openapi.test.ts). */
export const answer = <T extends z.ZodRawShape>(shape: T) => z.object(shape).strict();

/** Times are ISO 8601 in UTC. */
export const time = z.iso.datetime();
