#!/bin/sh
# SessionStart: print the compact-core preload; start the server first when nothing listens (common.sh).
. "$(dirname "$0")/common.sh"
kg_read_payload
kg_session_start /api/session_bootstrap SessionStart
exit 0
