/** Fault tests start their own servers (they stop and kill them); only the binaries are shared. */
import { ensureBinaries } from '../support/global-setup';

export default async function globalSetup(): Promise<void> {
  ensureBinaries();
}
