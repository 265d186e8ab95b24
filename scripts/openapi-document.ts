/**
 * Prints the OpenAPI document the service serves at `GET /api/openapi.json` (src/contract/openapi.ts),
 * for the OpenAPI linter of `npm run lint` (scripts/lint-openapi.sh): made from the same operations,
 * without a server or a build. The servers' URL is the default port's.
 */
import { openApiDocument } from '../src/contract/openapi';
import { OPERATIONS } from '../src/runtime/operations';
import { buildInfo } from '../src/core/build-info';

process.stdout.write(
  `${JSON.stringify(openApiDocument('http://localhost:3000', OPERATIONS, buildInfo().version), null, 2)}\n`,
);
