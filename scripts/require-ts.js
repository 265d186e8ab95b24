// Lets `node -r ./scripts/require-ts.js <file>.ts` run the project's TypeScript without a build (dist/ is
// left alone): every .ts file required is compiled on the fly to CommonJS by @swc/core, the compiler the
// tests run through (jest.config's @swc/jest). Types are not checked here; `tsc --noEmit` does that.
'use strict';
const fs = require('node:fs');
const Module = require('node:module');
const { transformSync } = require('@swc/core');

Module._extensions['.ts'] = (module, filename) => {
  const { code } = transformSync(fs.readFileSync(filename, 'utf8'), {
    filename,
    module: { type: 'commonjs' },
    jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
    sourceMaps: 'inline',
  });
  module._compile(code, filename);
};
