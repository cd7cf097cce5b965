"""The pass's dispatch prompt: the kg-maintain runbook (skills/kg-maintain/SKILL.md, one text for
people and for runs) with the graph, its DEBT line and the live context filled in."""

from __future__ import annotations

from functools import lru_cache

from ..core.held_names import name_held
from ..setup.plugin import plugin_source

SKILL = "skills/kg-maintain/SKILL.md"
HELD_SHOWN = 200  # ids listed under LIVE CONTEXT; a pass is bounded anyway


@lru_cache(maxsize=1)
def runbook() -> str:
    text = (plugin_source() / SKILL).read_text(encoding="utf-8")
    if text.startswith("---"):
        text = text.split("---", 2)[2]  # the front matter is for the skill loader
    return text.split("## Dispatching it as a subagent", 1)[0].strip()


def pass_prompt(graph: str, project_path: str | None, debt_line: str, held: list[str]) -> str:
    level = "user" if graph == "user" else "project"
    where = (f"The project folder is {project_path}: pass cwd=\"{project_path}\" to your first kg_read."
             if project_path else "This pass is for the user graph: call kg_read without cwd.")
    held = [i for i in held if not name_held(i)]  # an id holding a secret is shown to no agent (held_names.py)
    live = ", ".join(held[:HELD_SHOWN]) + (f" (and {len(held) - HELD_SHOWN} more)" if len(held) > HELD_SHOWN else "")
    return "\n\n".join([
        "You are a knowledge-graph maintenance pass, run in the background. Use only the kg tools.",
        f"Graph: {level}. {where}\n{debt_line}",
        f"LIVE CONTEXT (may not be renamed, merged away or deleted): {live or 'none'}",
        "Your first kg_read's reply names your session_id: pass it to every later call.",
        runbook(),
    ])
