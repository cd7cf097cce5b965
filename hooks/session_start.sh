#!/bin/sh
# SessionStart: print the compact-core preload; start the server first when nothing listens (common.sh).
# A hook never blocks a session (Claude Code reads exit 2 as "block") nor talks on stderr: a damaged install
# (common.sh missing, cut short, a folder) is silence and 0, as every other failure is.
trap 'exit 0' EXIT; exec 2>/dev/null
kg_loaded=; command . "$(dirname "$0")/common.sh" && [ "$kg_loaded" = 1 ] || exit 0
kg_read_payload
kg_session_start /api/session_bootstrap SessionStart
exit 0
