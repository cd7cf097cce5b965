#!/bin/sh
# Gemini CLI hook ($1: SessionStart | BeforeAgent | AfterTool; BeforeTool, which setup once wired, is
# silent: Gemini shows nothing a BeforeTool hook returns): the raw payload to the
# server; what comes back is printed only when it is hook output (Gemini parses stdout as JSON, so
# nothing else is ever printed). SessionStart starts the server when nothing listens.
. "${0%/*}/common.sh"
case "$1" in SessionStart|BeforeAgent|AfterTool) ;; *) exit 0 ;; esac
kg_read_payload
printf '%s' "$payload" | kg_post "/api/gemini/$1" "" "$1" && exit 0
if [ "$1" = SessionStart ]; then
  curl -s --noproxy '*' --max-time 0.5 "$KG_URL/health" >/dev/null 2>&1 && exit 0  # up, with nothing to say
  KG=${KG_BIN:-$(command -v kg 2>/dev/null)}
  [ -n "$KG" ] || exit 0
  "$KG" start >/dev/null 2>&1 || exit 0
  printf '%s' "$payload" | kg_post "/api/gemini/$1" 5 "$1"
fi
exit 0
