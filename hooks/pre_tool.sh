#!/bin/sh
# PreToolUse (shell commands): lessons that name the command about to run. It only informs:
# never a permission decision, never a change to the command; silent on any failure.
# A hook never blocks a session (Claude Code reads exit 2 as "block") nor talks on stderr: a damaged install
# (common.sh missing, cut short, a folder) is silence and 0, as every other failure is.
trap 'exit 0' EXIT; exec 2>/dev/null
kg_loaded=; command . "$(dirname "$0")/common.sh" && [ "$kg_loaded" = 1 ] || exit 0
kg_post /api/pre_tool "" PreToolUse
exit 0
