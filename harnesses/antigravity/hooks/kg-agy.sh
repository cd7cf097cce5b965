#!/bin/sh
# Antigravity CLI hook ($1: SessionStart | PreInvocation | PostToolUse): the raw payload goes to the
# server, which answers two lines: the acknowledgement to post back (or nothing), then what to print.
# Printed, then acknowledged: an ack lost on the way means the packet comes again (duplication is
# safe), never that a reply counts as delivered unseen. Silent on any failure.
[ -n "${KG_CHORE:-}${KG_MAINTENANCE:-}" ] && exit 0
case "$1" in SessionStart|PreInvocation|PostToolUse) ;; *) exit 0 ;; esac
[ -r "${0%/*}/kg_env" ] && . "${0%/*}/kg_env"
command -v curl >/dev/null 2>&1 || exit 0
KG_URL="http://127.0.0.1:${KG_HTTP_PORT:-8765}"
# The store this install serves (hooks/common.sh's rule): a server of another store refuses the request.
kg_home=${KG_HOME:-${KG_STORAGE_ROOT:-${HOME:+$HOME/.knowledge-graph}}}
# Named as kg reads it: `~/x` in HOME, a relative path from the folder the agent (and so the hook) runs in.
case $kg_home in "~") kg_home=${HOME:-} ;; "~/"*) kg_home=${HOME:+$HOME/${kg_home#"~/"}} ;; /*|"") ;;
  *) kg_home=$PWD/$kg_home ;; esac
case $kg_home in /*%*|*"
"*) kg_home= ;; /*) ;; *) kg_home= ;; esac
payload=$(tr -d '\000')  # a NUL is no JSON; a shell that is bash would warn of it on stderr
post() {
  printf '%s' "$payload" | curl -sf --noproxy '*' --max-time 2 -H 'Content-Type: application/json' \
    -H "X-KG-Home: $kg_home" --data-binary @- "$KG_URL/api/antigravity/hook/$1?lines=1" 2>/dev/null
}
reply=$(post "$1")
rc=$?
if [ $rc -eq 7 ] && [ "$1" = SessionStart ]; then  # nothing listens: start the server, then ask again
  KG=${KG_BIN:-$(command -v kg 2>/dev/null)}
  [ -n "$KG" ] || exit 0
  "$KG" start >/dev/null 2>&1 || exit 0
  reply=$(post "$1")
  rc=$?
fi
[ $rc -eq 0 ] || exit 0  # an error status or a reply cut at the timeout: nothing of it is printed
ack=${reply%%
*}
out=${reply#*
}
[ "$out" = "$reply" ] && exit 0  # not the two-line answer
case "$out" in
  '{"injectSteps"'*) printf '%s\n' "$out" ;;
  *) exit 0 ;;
esac
case "$ack" in
  '{"conversationId"'*) ;;
  *) exit 0 ;;
esac
printf '%s' "$ack" | curl -s --noproxy '*' --max-time 1 \
  -H 'Content-Type: application/json' -H "X-KG-Home: $kg_home" --data-binary @- "$KG_URL/api/antigravity/ack" >/dev/null 2>&1
exit 0
