"""Gemini CLI's hook payloads as the server reads them (kg_actors/harness/gemini.py)."""

from __future__ import annotations

from kg_actors.harness import gemini


def test_the_session_start_text_gemini_puts_ahead_of_a_prompt_is_not_the_persons():
    said = "<hook_context>KG MEMORY PRELOADED\nsession_id: ab12</hook_context>\n\nWhy does the deploy hang?"
    assert gemini.translated({"session_id": "s", "prompt": said})["prompt"] == "Why does the deploy hang?"
    assert gemini.typed("<hook_context>a</hook_context>") == ""  # nothing typed: nothing to search
    assert gemini.typed("see <hook_context> in the docs") == "see <hook_context> in the docs"  # no block: as typed
