#!/bin/sh
# PostToolUse (every tool): memory about the file just touched, or a capture nudge.
# A hook never blocks a session (Claude Code reads exit 2 as "block") nor talks on stderr: a damaged install
# (common.sh missing, cut short, a folder) is silence and 0, as every other failure is.
trap 'exit 0' EXIT; exec 2>/dev/null
kg_loaded=; command . "$(dirname "$0")/common.sh" && [ "$kg_loaded" = 1 ] || exit 0
kg_post /api/tool_event "" PostToolUse
exit 0
