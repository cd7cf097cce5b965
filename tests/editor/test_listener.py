"""The editor's port is held from the start and its stack loaded at the first connection; a stack that
does not load turns the editor off and leaves the server serving (kg_actors/runtime.py `_serve_editor`)."""

from __future__ import annotations

import socket
from types import SimpleNamespace

import trio
import trio.testing

from kg_actors import runtime
from kg_actors.editor import listener


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_a_busy_port_is_an_error_not_a_socket():
    with socket.socket() as squatter:
        squatter.bind(("127.0.0.1", 0))
        squatter.listen(1)
        got = listener.bind("127.0.0.1", squatter.getsockname()[1])
    assert isinstance(got, OSError)
    assert "--editor-port" in listener.busy_message("127.0.0.1:1", got)


def test_a_stack_that_does_not_load_turns_the_editor_off_and_returns(monkeypatch):
    rt = SimpleNamespace(config=SimpleNamespace(host="127.0.0.1", editor_port=_free_port()), editor="starting")
    imported: list[str] = []

    def broken(name: str):
        imported.append(name)
        raise ImportError("no module named quart")

    monkeypatch.setattr(runtime.importlib, "import_module", broken)

    async def main() -> None:
        clients = []
        with trio.fail_after(10):
            # The nursery ends by itself: the editor's task returns instead of raising into the server's.
            async with trio.open_nursery() as nursery:
                nursery.start_soon(runtime._serve_editor, rt)
                await trio.testing.wait_all_tasks_blocked()  # bound and listening, nothing imported yet
                assert rt.editor == "up" and imported == []
                # a browser's first connection
                clients.append(await trio.open_tcp_stream("127.0.0.1", rt.config.editor_port))
        await clients[0].aclose()

    trio.run(main)
    assert imported == ["kg_actors.editor.server"]
    assert rt.editor.startswith("off: the editor did not load (ImportError")
    with socket.socket() as probe:  # the port was let go
        probe.bind(("127.0.0.1", rt.config.editor_port))


def test_an_editor_that_fails_once_loaded_turns_off_with_why_and_the_server_goes_on(monkeypatch):
    # Code upgraded under a running server: the new editor module reads what the old loaded modules lack.
    rt = SimpleNamespace(config=SimpleNamespace(host="127.0.0.1", editor_port=_free_port()), editor="starting")

    async def serve_editor(rt, fd):
        raise AttributeError("module 'kg_actors.http.websocket' has no attribute 'PING_SECONDS'")

    monkeypatch.setattr(runtime.importlib, "import_module", lambda name: SimpleNamespace(serve_editor=serve_editor))

    async def main() -> None:
        with trio.fail_after(10):
            async with trio.open_nursery() as nursery:
                nursery.start_soon(runtime._serve_editor, rt)
                await trio.testing.wait_all_tasks_blocked()
                client = await trio.open_tcp_stream("127.0.0.1", rt.config.editor_port)
        await client.aclose()

    trio.run(main)  # the nursery (the server's) ends without the editor's error
    assert rt.editor.startswith("off: the editor failed (AttributeError: module 'kg_actors.http.websocket'"), rt.editor
    with socket.socket() as probe:  # the port was let go: a browser is refused, not left waiting
        probe.bind(("127.0.0.1", rt.config.editor_port))
