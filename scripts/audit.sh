#!/usr/bin/env bash
# The advisory check of CI (.ci/run, after lint): `npm audit` of the production dependencies as
# locked (package-lock.json; devDependencies never ship in the image). A high or critical advisory
# fails the run, each named with the dependency that brings it. When the registry's audit endpoint
# does not answer (no network, a mirror without it: some answer 405), one line says nothing was
# checked and the run goes on: the update bot (.github/dependabot.yml) still proposes fixes.
set -uo pipefail
cd "$(dirname "$0")/.."
answer=$(mktemp)
trap 'rm -f "$answer"' EXIT

npm audit --omit=dev --audit-level=high --json >"$answer" 2>/dev/null

node -e '
  const fs = require("fs");
  let report;
  try {
    report = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
  } catch {
    report = undefined;
  }
  const counts = report?.metadata?.vulnerabilities;
  if (!report || report.error || !counts) {
    const why = report?.message || report?.error?.summary || report?.error?.code || "no answer";
    console.log(`advisory check: the audit endpoint did not answer (${why}); nothing checked`);
    process.exit(0);
  }
  const serious = Object.values(report.vulnerabilities ?? {}).filter(
    (v) => v.severity === "high" || v.severity === "critical",
  );
  for (const v of serious) {
    const via = v.via.map((a) => (typeof a === "string" ? a : a.url || a.title)).join(", ");
    const fix = v.fixAvailable ? "a fix is available" : "no fix yet";
    console.log(`advisory: ${v.name} ${v.range} (${v.severity}): ${via}; ${fix}`);
  }
  console.log(
    `advisory check: ${counts.critical} critical, ${counts.high} high, ${counts.moderate} moderate, ` +
      `${counts.low} low in the production dependencies`,
  );
  process.exit(counts.critical + counts.high > 0 ? 1 : 0);
' "$answer"
