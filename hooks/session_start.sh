#!/bin/sh
# SessionStart: print the compact-core preload; start the server first when nothing listens.
. "$(dirname "$0")/common.sh"
kg_read_payload
# One curl when the server is up (a separate health check cost a second process start). 2 s: a
# server that is up answers in milliseconds, or in about a second when it loads a large project
# graph first; one that hangs holds the session no longer than that.
reply=$(printf '%s' "$payload" | curl -sf --noproxy '*' --max-time 2 -H 'Content-Type: application/json' \
  --data-binary @- "$KG_URL/api/session_bootstrap?started=0" 2>/dev/null)
rc=$?
started=""
if [ "$rc" -eq 7 ]; then  # curl: could not connect, so nothing listens on the port
  KG=${KG_BIN:-$(command -v kg 2>/dev/null)}
  [ -n "$KG" ] || exit 0
  "$KG" start >/dev/null 2>&1 || exit 0
  started="1"
  # The server words the user's one-line message, including that it was just started (and loads
  # the project's graph now: this hook started it, so it may take longer).
  reply=$(printf '%s' "$payload" | curl -sf --noproxy '*' --max-time 5 -H 'Content-Type: application/json' \
    --data-binary @- "$KG_URL/api/session_bootstrap?started=1" 2>/dev/null)
  rc=$?
fi
[ "$rc" -eq 0 ] && kg_print "$reply" SessionStart && exit 0
[ -n "$started" ] && printf '{"systemMessage":"kg memory: server started (it was down); no preload this time."}\n'
exit 0
