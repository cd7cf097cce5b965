#!/bin/sh
# Gemini CLI hook ($1: SessionStart | BeforeAgent | AfterTool; BeforeTool, which setup once wired, is
# silent: Gemini shows nothing a BeforeTool hook returns): the raw payload to the
# server; what comes back is printed only when it is hook output (Gemini parses stdout as JSON, so
# nothing else is ever printed). SessionStart starts the server when nothing listens.
# A hook never blocks a session (Claude Code reads exit 2 as "block") nor talks on stderr: a damaged install
# (common.sh missing, cut short, a folder) is silence and 0, as every other failure is.
trap 'exit 0' EXIT; exec 2>/dev/null
kg_loaded=; command . "${0%/*}/common.sh" && [ "$kg_loaded" = 1 ] || exit 0
case "$1" in SessionStart|BeforeAgent|AfterTool) ;; *) exit 0 ;; esac
kg_read_payload
# Gemini's own trust overrides, as Gemini sees them (the server may have been started by another agent):
# the server decides from them and Gemini's files whether kg's tools run in this folder. A value holding
# a quote, a backslash or a control character is left out rather than escaped.
env_json=
for name in GEMINI_RESTRICTED_MODE GEMINI_CLI_TRUST_WORKSPACE GEMINI_CLI_HOME GEMINI_CLI_TRUSTED_FOLDERS_PATH; do
  eval "value=\${$name-}"
  case $value in ''|*'"'*|*\\*|*[[:cntrl:]]*) continue ;; esac
  env_json="$env_json${env_json:+,}\"$name\":\"$value\""
done
case $payload in '{"'*) [ -n "$env_json" ] && payload="{\"kg_gemini_env\":{$env_json},${payload#\{}" ;; esac
if [ "$1" = SessionStart ]; then
  kg_session_start "/api/gemini/$1" "$1"  # shared with Claude Code's (common.sh): starts a server down
else
  printf '%s' "$payload" | kg_post "/api/gemini/$1" "" "$1"
fi
exit 0
