/** Fault tests start their own servers (they stop and kill them); only the binaries are shared. */
import { ensureBinaries } from '../support/global-setup';

export default function globalSetup(): void {
  ensureBinaries();
}
