// The dashboard's build (README, "The dashboard"): Preact, bundled by Vite into web/dist, which the
// receiver serves on the service's own port. Vite prints each file's size as it builds.
import fs from 'node:fs';
import path from 'node:path';
import { defineConfig, type Plugin } from 'vite';
import preact from '@preact/preset-vite';

/**
 * The files this build read, outside node_modules (the lock file stands for those), written to
 * DASHBOARD_INPUTS_FILE when set: scripts/build.sh builds the dashboard again only when one changed.
 */
function listInputs(file: string | undefined): Plugin {
  const root = path.resolve(__dirname, '..');
  return {
    name: 'list-inputs',
    generateBundle() {
      if (!file) return;
      const read = [...this.getModuleIds()]
        .map((id) => id.split('?')[0])
        .filter((id) => path.isAbsolute(id) && !id.includes('/node_modules/') && fs.existsSync(id))
        .map((id) => path.relative(root, id));
      fs.writeFileSync(file, [...read, 'web/index.html'].sort().join('\n') + '\n');
    },
  };
}

export default defineConfig({
  root: __dirname,
  plugins: [preact(), listInputs(process.env.DASHBOARD_INPUTS_FILE)],
  build: { outDir: 'dist', emptyOutDir: true, reportCompressedSize: true },
});
