#!/bin/sh
# Gemini CLI hook ($1: SessionStart | BeforeAgent | AfterTool | BeforeTool): the raw payload to the
# server; what comes back is printed only when it is hook output (Gemini parses stdout as JSON, so
# nothing else is ever printed). SessionStart starts the server when nothing listens.
. "${0%/*}/common.sh"
case "$1" in SessionStart|BeforeAgent|AfterTool|BeforeTool) ;; *) exit 0 ;; esac
payload=$(cat)
printf '%s' "$payload" | kg_post "/api/gemini/$1" 2 && exit 0
if [ "$1" = SessionStart ]; then
  curl -s --noproxy '*' --max-time 1 "$KG_URL/health" >/dev/null 2>&1 && exit 0  # up, with nothing to say
  KG=${KG_BIN:-$(command -v kg 2>/dev/null)}
  [ -n "$KG" ] || exit 0
  "$KG" start >/dev/null 2>&1 || exit 0
  printf '%s' "$payload" | kg_post "/api/gemini/$1" 5
fi
exit 0
