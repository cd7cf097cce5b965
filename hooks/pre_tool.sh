#!/bin/sh
# PreToolUse (shell commands): lessons that name the command about to run. It only informs:
# never a permission decision, never a change to the command; silent on any failure.
. "$(dirname "$0")/common.sh"
kg_post /api/pre_tool "" PreToolUse
exit 0
