// The dashboard's build (README, "The dashboard"): Preact, bundled by Vite into web/dist, which the
// receiver serves on the service's own port. Vite prints each file's size as it builds.
import { defineConfig } from 'vite';
import preact from '@preact/preset-vite';

export default defineConfig({
  root: __dirname,
  plugins: [preact()],
  build: { outDir: 'dist', emptyOutDir: true, reportCompressedSize: true },
});
