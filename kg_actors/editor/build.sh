#!/usr/bin/env bash
# Rebuild static/vendor/ from the pinned npm lock file (npm ci: exact versions, reproducible).
# The copied files are committed, so `pip install` needs neither npm nor the network.
set -euo pipefail
cd "$(dirname "$0")"
npm ci --no-audit --no-fund
out=static/vendor
rm -rf "$out"
mkdir -p "$out"
# Load order in index.html: layout-base, cose-base, cytoscape-fcose register UMD globals in that chain.
cp node_modules/cytoscape/dist/cytoscape.min.js "$out/"
cp node_modules/layout-base/layout-base.js "$out/"
cp node_modules/cose-base/cose-base.js "$out/"
cp node_modules/cytoscape-fcose/cytoscape-fcose.js "$out/"
for pkg in cytoscape layout-base cose-base cytoscape-fcose; do
  cp "node_modules/$pkg/LICENSE" "$out/LICENSE.$pkg"
done
(cd "$out" && sha256sum ./*.js > SHA256SUMS)
echo "vendored into $out:"
cat "$out/SHA256SUMS"
