/**
 * The failure converter of the client, the worker and the workflow bundle (loaded by path: see
 * FAILURE_CONVERTER_PATH, src/temporal/client.ts): a failure's message and stack are encoded into a
 * payload, which the payload codec seals.
 */
import { DefaultFailureConverter } from '@temporalio/common';

export const failureConverter = new DefaultFailureConverter({ encodeCommonAttributes: true });
