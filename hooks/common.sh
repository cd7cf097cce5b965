# Shared by the hook scripts: where the server is, and the silent rules.
# A maintenance chore runs its own agent: its hooks say nothing at all.
[ -n "${KG_CHORE:-}${KG_MAINTENANCE:-}" ] && exit 0
# `kg setup` writes kg_env beside the hooks: the installed kg (need not be on PATH), the store and port.
# (${0%/*}, not dirname: a hook pays for every process it starts)
[ -r "${0%/*}/kg_env" ] && . "${0%/*}/kg_env"
KG_URL="http://127.0.0.1:${KG_HTTP_PORT:-8765}"
command -v curl >/dev/null 2>&1 || exit 0

# Post stdin (the raw hook payload) to $1; print the reply only if it is hook output.
# The server gets ${2:-1} second(s); a proxy is never asked (the server is local).
kg_post() {
  reply=$(curl -s --noproxy '*' --max-time "${2:-1}" -H 'Content-Type: application/json' \
    --data-binary @- "$KG_URL$1" 2>/dev/null) || return 1
  case "$reply" in
    *hookSpecificOutput*|*systemMessage*) printf '%s\n' "$reply"; return 0 ;;
  esac
  return 1
}
