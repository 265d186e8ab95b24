/** Cluster tests start their own cluster per file; only the binaries are shared. */
import { ensureBinaries } from '../support/global-setup';

export default function globalSetup(): void {
  ensureBinaries();
  ensureBinaries('cluster-binaries.sh', ['TEMPORAL_SERVER_BIN', 'TEMPORAL_SQL_TOOL_BIN', 'POSTGRES_BIN', 'NGINX_BIN']);
}
