#!/bin/sh
# UserPromptSubmit: recall for this prompt, or, when the server has nothing to say, one reminder line
# staged by session depth.
# A hook never blocks a session (Claude Code reads exit 2 as "block") nor talks on stderr: a damaged install
# (common.sh missing, cut short, a folder) is silence and 0, as every other failure is.
trap 'exit 0' EXIT; exec 2>/dev/null
kg_loaded=; command . "$(dirname "$0")/common.sh" && [ "$kg_loaded" = 1 ] || exit 0
kg_read_payload
[ -n "$payload" ] || exit 0  # no payload is no prompt
reply=$(printf '%s' "$payload" | kg_fetch /api/prompt_context) || exit 0  # down, failed or slow: silence
kg_print "$reply" UserPromptSubmit && exit 0
# Only the server's own "nothing to say" earns the reminder: any other reply is a failure, and a hook
# that fails says nothing (it would send the agent to a memory that is not answering).
[ "$reply" = "{}" ] || exit 0
# The server had nothing: one line from a pool for how deep the session is.
# The transcript path is cut out by the shell itself (a process per step would cost more
# than the reply); only a path in the payload's head counts: it comes before a long prompt.
transcript=""
head=$payload
# A shell whose `sh` is bash cuts a long payload in quadratic time (5 MB: over a minute): only a
# payload of a typed prompt's size is searched (Claude Code puts the path first).
[ ${#payload} -lt 16384 ] && head=${payload%%\"transcript_path\"*}
if [ "$head" != "$payload" ] && [ ${#head} -lt 4096 ]; then
  rest=${payload#"$head"\"transcript_path\"}
  rest=${rest#*\"}
  transcript=${rest%%\"*}
fi
size=0
case "$transcript" in
  /*.jsonl) [ -f "$transcript" ] && size=$(wc -c <"$transcript" 2>/dev/null || echo 0) ;;
esac
# The pools are reminders.txt beside this script (the one source: the server gives the other harnesses'
# hooks the same lines): the run of lines whose bound the transcript is under, read by the shell itself.
# A line's CR (a file saved with CRLF) is dropped, and so is a line over 300 characters, as the server does.
# Only a regular file: a FIFO there would hold the session for ever.
reminders=${0%/*}/reminders.txt
[ -f "$reminders" ] || exit 0
pool=; set --; cr=$(printf '\r')
while IFS= read -r line || [ -n "$line" ]; do
  line=${line%"$cr"}
  case $line in '#'*|*' '*) ;; *) continue ;; esac  # a reminder is a bound, a space and its line
  bound=${line%% *}; text=${line#* }
  [ ${#text} -le 300 ] || continue  # a reminder is a line, not a page (core/reminders.py's LINE_MAX)
  case $bound in
    -) ;;
    ''|*[!0123456789]*) continue ;;  # a comment, or not a bound
    *) [ "$size" -lt "$bound" ] || continue ;;
  esac
  [ -n "$pool" ] && [ "$bound" != "$pool" ] && break
  pool=$bound
  set -- "$@" "$text"
done <"$reminders"
[ $# -gt 0 ] || exit 0
shift $(( $$ % $# ))
text=$1
# Printed inside JSON: a quote or backslash escaped, a control character (a tab) a space; a process only then.
case $text in *'"'*|*\\*|*[[:cntrl:]]*)
  text=$(printf '%s\n' "$text" | sed 's/[[:cntrl:]]/ /g; s/[\\"]/\\&/g') || exit 0 ;;
esac
printf '{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"%s"}}\n' "$text"
exit 0
