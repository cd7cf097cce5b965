"""The thin adapters' pure translations: Antigravity, Gemini CLI and OpenCode payloads as Claude Code's."""

from __future__ import annotations

import json

from kg_actors.harness import antigravity as agy
from kg_actors.harness import gemini, opencode, profiles

T = "/home/u/.gemini/antigravity-cli/conversations/c1/transcript.jsonl"


def test_antigravity_tools_map_onto_claude_code_s_and_a_command_without_cwd_has_no_folder():
    base = {"conversationId": "c1", "workspacePaths": ["/home/u/p"], "transcriptPath": T}
    for name, (tool, _field) in agy.TOOLS.items():
        arg = "CommandLine" if tool == "Bash" else ("AbsolutePath" if name == "view_file" else "TargetFile")
        out = agy.tool_payload({**base, "toolCall": {"name": name, "args": {arg: "/home/u/p/a.py"}}})
        assert out["tool_name"] == tool and out["session_id"] == "c1"
    bash = agy.tool_payload({**base, "toolCall": {"name": "run_command", "args": {"CommandLine": "cat a.py"}}})
    assert bash["cwd"] == "" and bash["tool_input"] == {"command": "cat a.py"}
    assert agy.tool_payload({**base, "toolCall": {"name": "search_web", "args": {"query": "x"}}}) is None
    assert agy.tool_payload({**base, "toolCall": {"name": "view_file", "args": {"AbsolutePath": 7}}}) is None


def test_only_cli_payloads_with_a_conversation_are_antigravity_s():
    assert agy.is_cli_payload({"conversationId": "c1", "transcriptPath": T})
    assert not agy.is_cli_payload({"conversationId": "c1", "transcriptPath": "/home/u/.gemini/antigravity/x.jsonl"})
    assert not agy.is_cli_payload({"conversationId": "", "transcriptPath": T})
    assert not agy.is_cli_payload({"conversationId": "x" * 129, "transcriptPath": T})
    assert not agy.is_cli_payload({"session_id": "s", "transcript_path": T})
    assert profiles.from_transcript(T) is profiles.ANTIGRAVITY


def test_transcript_scan_finds_the_newest_request_and_a_checkpoint_forgets_older_ones():
    rows = [{"type": "USER_INPUT", "content": "<USER_REQUEST>\nfirst\n</USER_REQUEST>"},
            {"type": "PLANNER_RESPONSE", "content": "..."},
            {"type": "USER_INPUT", "content": "<USER_REQUEST>second</USER_REQUEST><ADDITIONAL_METADATA>x"}]
    data = "\n".join(json.dumps(r) for r in rows).encode()
    assert agy.scan(b'partial line"}\n' + data) == (False, "second")
    assert agy.scan(data + b"\n" + json.dumps({"type": "CHECKPOINT"}).encode()) == (True, None)
    assert agy.first_invocation({"invocationNum": 0}) and not agy.first_invocation({"invocationNum": 2})


def test_gemini_and_opencode_payloads_translate_and_their_harnesses_are_recognised():
    g = gemini.translated({"session_id": "s", "tool_name": "run_shell_command", "tool_input": {"command": "ls"}})
    assert g["tool_name"] == "Bash" and g["tool_input"] == {"command": "ls"}
    assert gemini.renamed({"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "x"}},
                          "AfterTool")["hookSpecificOutput"]["hookEventName"] == "AfterTool"
    assert profiles.from_transcript("/home/u/.gemini/tmp/abc/chats/session-1.json") is profiles.GEMINI
    o = opencode.translated({"sessionID": "ses_1", "directory": "/home/u/p", "tool": "read",
                             "args": {"filePath": "/home/u/p/a.py"}})
    assert o["tool_name"] == "Read" and o["tool_input"] == {"file_path": "/home/u/p/a.py"}
    assert profiles.from_transcript(o["transcript_path"]) is profiles.OPENCODE
    assert opencode.translated({"conversationId": "c"}) is None
    assert opencode.reply({"hookSpecificOutput": {"additionalContext": "t"}, "systemMessage": "m"}) == \
        {"context": "t", "message": "m"}
    assert profiles.GEMINI.measure("é😀") == 3 and profiles.OPENCODE.measure("é😀") == 6


def test_a_codex_payload_without_a_transcript_is_codex_and_a_get_without_one_is_claude_codes():
    assert profiles.of_payload({"session_id": "s", "transcript_path": None, "model": "gpt-5.1-codex"}) is profiles.CODEX
    assert profiles.of_payload({"session_id": "s", "turn_id": "t", "transcript_path": None}) is profiles.CODEX
    assert profiles.of_payload({"session_id": "s"}) is profiles.CLAUDE_CODE  # a bootstrap GET names none
    assert profiles.of_payload({"transcript_path": "/h/.codex/sessions/rollout-1.jsonl"}) is profiles.CODEX


def test_opencode_is_told_that_a_commands_lessons_come_after_it_ran():
    from kg_actors.core import command_recall

    out = {"hookSpecificOutput": {"additionalContext": command_recall.HEADER + "\n- make deploy needs the VPN"}}
    assert opencode.reply(out, "tool.before")["context"].startswith(opencode.AFTER_THE_COMMAND)
    assert opencode.reply(out, "tool.after")["context"].startswith(command_recall.HEADER)
