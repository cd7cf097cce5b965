// kg memory for OpenCode: carries OpenCode's events to the local kg server, which decides what to add.
// Preload and prompt recall go into the system prompt of the session's later model calls; file and shell
// recall are appended to the tool's output. Any failure adds nothing: a session is never blocked.
import { spawn } from "node:child_process"
import { resolve } from "node:path"

// `kg setup` writes this line: the installed kg and the environment it runs with.
const SETTINGS = {}

const env = { ...(SETTINGS.env || {}), ...process.env }
const BASE = `http://127.0.0.1:${env.KG_HTTP_PORT || 8765}`
const TIMEOUT_MS = 1000
const SESSION_START_MS = 5000
// The store this install serves (hooks/common.sh's rule): a server of another store refuses the request (409).
// Named as kg reads it: `~/x` in HOME, a relative path from the folder OpenCode runs in.
const SAID = env.KG_HOME || env.KG_STORAGE_ROOT || (env.HOME ? `${env.HOME}/.knowledge-graph` : "")
const HOME_DIR = SAID === "~" || SAID.startsWith("~/") ? (env.HOME ? env.HOME + SAID.slice(1) : "")
  : SAID && !SAID.startsWith("/") ? resolve(SAID) : SAID
const STORE = HOME_DIR.startsWith("/") ? { "x-kg-home": encodeURIComponent(HOME_DIR).replaceAll("%2F", "/") } : {}

async function ask(event, body, timeout = TIMEOUT_MS) {
  if (env.KG_CHORE || env.KG_MAINTENANCE) return {}
  try {
    const r = await fetch(`${BASE}/api/opencode/${event}`, {
      method: "POST", headers: { "content-type": "application/json", ...STORE }, body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeout),
    })
    return r.ok ? await r.json() : {}
  } catch (err) {
    // Node puts the code in err.cause; Bun (OpenCode's runtime) on the error itself, "ConnectionRefused" in 1.3.
    const code = err?.cause?.code ?? err?.code
    return { down: code === "ECONNREFUSED" || code === "ConnectionRefused" }
  }
}

// "up" when the server's /health answers within half a second, "down" when nothing listens, else "hung".
async function alive() {
  if (env.KG_CHORE || env.KG_MAINTENANCE) return "hung" // a chore's own agent: no preload, nothing started
  try {
    await fetch(`${BASE}/health`, { signal: AbortSignal.timeout(500) })
    return "up"
  } catch (err) {
    const code = err?.cause?.code ?? err?.code
    return code === "ECONNREFUSED" || code === "ConnectionRefused" ? "down" : "hung"
  }
}

// `kg start`, awaited without holding OpenCode's event loop (a spawnSync froze every session meanwhile).
function startServer() {
  const kg = SETTINGS.bin || "kg"
  return new Promise((resolve) => {
    try {
      const child = spawn(kg, ["start"], { env, stdio: "ignore" })
      const timer = setTimeout(() => { child.kill(); resolve() }, 20000)
      child.on("exit", () => { clearTimeout(timer); resolve() })
      child.on("error", () => { clearTimeout(timer); resolve() })
    } catch {
      resolve()
    }
  })
}

// OpenCode's own hidden agents (title, summary, compaction) run on the user's session id, through the same
// system transform; their system prompt is their own prompt alone. Their calls are no work of the agent the
// user talks to: no preload, no recall (the preload was ~1.8 KB on every title call).
const OWN_AGENTS = ["You are a title generator.", "You are a context summarization agent.",
  "Summarize what was done in this conversation."]

function ownAgentCall(system) {
  const first = typeof system?.[0] === "string" ? system[0] : ""
  return OWN_AGENTS.some((opening) => first.startsWith(opening))
}

function promptText(parts) {
  return (parts || []).filter((p) => p && p.type === "text" && !p.synthetic).map((p) => p.text).join("\n")
}

export const KgMemory = async ({ directory }) => {
  const preload = new Map() // sessionID -> preload text (kept: the system prompt is rebuilt per call)
  const recall = new Map() // sessionID -> this turn's reminder
  // sessionID -> the prompt replies that brought lessons: kg counts them as seen, and OpenCode rebuilds the system
  // prompt for every call, so they are added to every later call of the session (a compaction starts over).
  const kept = new Map()
  const before = new Map() // callID -> shell recall, added to that tool's output
  const opening = new Map() // sessionID -> the pending session.start

  async function open(sessionID, source = "startup") {
    // As Claude Code's and Gemini's SessionStart hooks (hooks/common.sh): a server whose /health answers is
    // alive and gets up to 5 s (it may be loading the project: 2-3 s at 10,000 nodes); one that answers
    // nothing is hung and holds the session no longer, and is not started again; one that is down is
    // started, then gets the same 5 s.
    const state = await alive()
    if (state === "hung") return preload.set(sessionID, "")
    if (state === "down") await startServer()
    const out = await ask("session.start", { sessionID, directory, source }, SESSION_START_MS)
    preload.set(sessionID, out.context || "")
  }

  function opened(sessionID, source) {
    if (!opening.has(sessionID) || source) opening.set(sessionID, open(sessionID, source))
    return opening.get(sessionID)
  }

  return {
    event: async ({ event }) => {
      if (event?.type === "session.compacted" && event.properties?.sessionID) {
        kept.delete(event.properties.sessionID)
        await opened(event.properties.sessionID, "compact")
      }
    },
    "chat.message": async (input, output) => {
      await opened(input.sessionID)
      const out = await ask("chat.message", { sessionID: input.sessionID, directory, prompt: promptText(output.parts) })
      if (out.keep && out.context) {
        kept.set(input.sessionID, [...(kept.get(input.sessionID) || []), out.context])
        recall.set(input.sessionID, "")
      } else {
        recall.set(input.sessionID, out.context || "")
      }
    },
    "experimental.chat.system.transform": async (input, output) => {
      if (!input.sessionID || ownAgentCall(output.system)) return
      await opened(input.sessionID)
      for (const text of [preload.get(input.sessionID), ...(kept.get(input.sessionID) || []), recall.get(input.sessionID)]) {
        if (text) output.system.push(text)
      }
    },
    "tool.execute.before": async (input, output) => {
      if (input.tool !== "bash") return
      const out = await ask("tool.before", { sessionID: input.sessionID, directory, tool: input.tool, args: output.args })
      if (out.context) before.set(input.callID, out.context)
    },
    "tool.execute.after": async (input, output) => {
      const out = await ask("tool.after", { sessionID: input.sessionID, directory, tool: input.tool, args: input.args })
      const texts = [before.get(input.callID), out.context].filter(Boolean)
      before.delete(input.callID)
      if (texts.length && typeof output.output === "string") {
        output.output += `\n\n<kg-memory>\n${texts.join("\n\n")}\n</kg-memory>`
      }
    },
  }
}
