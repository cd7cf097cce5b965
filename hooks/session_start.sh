#!/bin/sh
# SessionStart: make sure the server is up, then print the compact-core preload it returns.
. "$(dirname "$0")/common.sh"
payload=$(cat)
started=""
if ! curl -s --noproxy '*' --max-time 1 "$KG_URL/health" >/dev/null 2>&1; then
  KG=$(command -v kg 2>/dev/null || echo "${KG_BIN:-}")
  [ -n "$KG" ] || exit 0
  "$KG" start >/dev/null 2>&1 || exit 0
  started="1"
fi
# The server words the user's one-line message, including that it was just started.
printf '%s' "$payload" | kg_post "/api/session_bootstrap?started=${started:-0}" 5 && exit 0
[ -n "$started" ] && printf '{"systemMessage":"kg memory: server started (it was down); no preload this time."}\n'
exit 0
