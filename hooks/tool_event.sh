#!/bin/sh
# PostToolUse (every tool): memory about the file just touched, or a capture nudge.
. "$(dirname "$0")/common.sh"
kg_post /api/tool_event "" PostToolUse
exit 0
