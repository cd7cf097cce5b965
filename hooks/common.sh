# Shared by the hook scripts: where the server is, and the silent rules.
# A maintenance chore runs its own agent: its hooks say nothing at all.
[ -n "${KG_CHORE:-}${KG_MAINTENANCE:-}" ] && exit 0
# `kg setup` writes kg_env beside the hooks: the installed kg (need not be on PATH), the store and port.
# (${0%/*}, not dirname: a hook pays for every process it starts)
[ -r "${0%/*}/kg_env" ] && . "${0%/*}/kg_env"
# A port of anything but digits ("+8765", " 8765", fullwidth digits) is in no URL curl reaches; kg refuses it.
case ${KG_HTTP_PORT:-8765} in *[!0123456789]*) exit 0 ;; esac
KG_URL="http://127.0.0.1:${KG_HTTP_PORT:-8765}"
command -v curl >/dev/null 2>&1 || exit 0
# The store this install serves, named in every request: a server of another store on the port (a second
# install) refuses it (409), and the hook prints nothing of that memory. Only an absolute path a header carries
# as it is (the server reads a "%" as an escape); otherwise none is named, and any server serves it.
kg_home=${KG_HOME:-${KG_STORAGE_ROOT:-${HOME:+$HOME/.knowledge-graph}}}
# Named as kg reads it: `~/x` in HOME, a relative path from the folder the agent (and so the hook) runs in.
case $kg_home in "~") kg_home=${HOME:-} ;; "~/"*) kg_home=${HOME:+$HOME/${kg_home#"~/"}} ;; /*|"") ;;
  *) kg_home=$PWD/$kg_home ;; esac
case $kg_home in /*%*|*"
"*) kg_home= ;; /*) ;; *) kg_home= ;; esac

# The hook's stdin into $payload, less any NUL: no JSON holds one, and a shell that is bash (Fedora's, Arch's
# sh) would warn of it on stderr.
kg_read_payload() {
  payload=$(tr -d '\000')
}

# Post stdin (the raw hook payload) to $1; print the reply only if it is hook output (for event $3).
# The server gets ${2:-0.6} second(s), so that with the hook's own start, and a loaded machine's delay
# in waking curl to give up (CI saw a 0.8 s wait close at 1.15 s), it stays under a second; the server
# answers in milliseconds (bench/RESULTS-hooks.md);
# a proxy is never asked (the server is local). An error status (-f), a cut reply (curl's code)
# or anything but one line of hook JSON prints nothing: a proxy's error page, a 500's body or a
# half reply would reach the conversation as context.
kg_post() {
  reply=$(kg_fetch "$1" "${2:-}") || return 1
  kg_print "$reply" "${3:-}"
}

# Post stdin to $1 and print the server's whole reply; fail when it did not answer 200 in time.
kg_fetch() {
  curl -sf --noproxy '*' --max-time "${2:-0.6}" -H 'Content-Type: application/json' -H "X-KG-Home: $kg_home" \
    --data-binary @- "$KG_URL$1" 2>/dev/null
}

# Print $1 if it is one line of hook output, and for the event $2 when one is named (an agent refuses
# context whose hookEventName is another event's).
kg_print() {
  case "$1" in
    *"
"*) return 1 ;;
    '{"hookSpecificOutput":{"hookEventName":"'"${2:-}"*'}'|'{"systemMessage":"'*'}') printf '%s\n' "$1"; return 0 ;;
  esac
  return 1
}

# SessionStart, one routine for Claude Code's and Gemini's hooks: post $payload to $1 and print the preload
# for event $2. A server is asked for its /health first, with 0.5 s: one that answers is alive and gets up
# to 5 s for the preload (a large graph's first load takes longer on a busy machine: the server waits 2.5 s
# for it, then preloads what is loaded and says the rest is loading); one that answers nothing is hung and
# holds the session no longer (the
# promise is about one second), and is not started again. When nothing listens, `kg start` starts it and
# the payload goes again (?started=1: the server's line says so) with up to 5 s. When `kg start` cannot
# (the store's server runs on another port, say), the user's line is what it said.
kg_session_start() {
  health=$(curl -s --noproxy '*' --max-time 0.5 "$KG_URL/health" 2>/dev/null)
  case $? in
    0) case $health in
         *'"loaded_graphs"'*) reply=$(printf '%s' "$payload" | kg_fetch "$1?started=0" 5) && kg_print "$reply" "$2"
                              # 22: refused (409: it serves another store): `kg status` names both stores.
                              [ $? -eq 22 ] || return 0 ;;
       esac
       # Another program answers on kg's port: a session without its memory is told why, in `kg status`'s words.
       KG=${KG_BIN:-$(command -v kg 2>/dev/null)}
       [ -n "$KG" ] || return 0
       if command -v timeout >/dev/null 2>&1; then said=$(timeout 4 "$KG" status 2>&1); else said=$("$KG" status 2>&1); fi
       [ $? -eq 3 ] && kg_say "$said"
       return 0 ;;
    7) ;;  # curl's 7: could not connect, so nothing listens on the port
    *) return 0 ;;
  esac
  KG=${KG_BIN:-$(command -v kg 2>/dev/null)}
  [ -n "$KG" ] || return 0
  # `kg start` says at once why it cannot start one (a start takes 1-2 s); bounded all the same, where
  # coreutils' timeout is, so that a kg stuck for any reason holds the session 4 s, not its 20 s limit.
  if command -v timeout >/dev/null 2>&1; then said=$(timeout 4 "$KG" start 2>&1); else said=$("$KG" start 2>&1); fi
  case $? in
    0) ;;
    124) kg_say "kg start did not finish within 4 s (kg status says why); no preload this time"; return 0 ;;
    *) kg_say "$said"; return 0 ;;
  esac
  reply=$(printf '%s' "$payload" | kg_fetch "$1?started=1" 5) && kg_print "$reply" "$2" && return 0
  printf '{"systemMessage":"kg memory: server started (it was down); no preload this time."}\n'
}

# Print the last line of $1 (what a `kg` command said), less its "kg: ", as the user's one line: JSON-escaped,
# control characters dropped.
kg_say() {
  line=$(printf '%s\n' "$1" | sed -n '$s/^kg: //;$s/[[:cntrl:]]//g;$s/[\\"]/\\&/g;$p')
  [ -n "$line" ] && printf '{"systemMessage":"kg memory: %s"}\n' "$line"
}

kg_loaded=1  # last: the hooks run only on a common.sh read to its end
