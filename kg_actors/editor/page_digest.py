"""Which editor page the server started with. Its web side (editor/server.py) loads at the first browser
connection, and an upgrade may have installed a new page and scripts by then: written for a newer API, they
would run against this server's. The files are not held from the start (about 1 MB, mostly the graph
library, for a page most servers never show); their digest is (~2 ms), and a page that differs from it is
not served (server.py says to restart instead)."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from pathlib import Path

STATIC = Path(__file__).parent / "static"

STALE_PAGE = (
    "<!doctype html><html><head><meta charset=\"utf-8\"><title>kg: restart the server</title></head>"
    "<body style=\"font-family: sans-serif; margin: 3em\"><h1>Restart the kg server</h1>"
    "<p>kg was upgraded or reinstalled after this server started: the editor's page on disk is not the one "
    "this server was started with, and would not work with it.</p>"
    "<p>Restart the server to serve the installed kg: <code>kg stop &amp;&amp; kg start</code>, then reload "
    "this page. Your memory is unaffected.</p></body></html>"
).encode()


def digest_of(files: Iterable[tuple[str, bytes]]) -> str:
    """A digest of (relative name, contents) pairs, in the order given."""
    digest = hashlib.sha256()
    for name, body in files:
        digest.update(name.encode() + b"\0" + len(body).to_bytes(8, "big") + body)
    return digest.hexdigest()[:16]


def page_files(root: Path = STATIC) -> list[Path]:
    """The page's files, less an editor's leftovers beside them (`.app.js.swp`, `app.js~`): never served, and
    no change of the page."""
    return sorted(p for p in root.rglob("*") if p.is_file() and not p.name.startswith(".") and not p.name.endswith("~"))


def folder_digest(root: Path = STATIC) -> str:
    """The digest of the page's files now (a file unreadable mid-upgrade counts as empty: the digest differs)."""
    def read(path: Path) -> bytes:
        try:
            return path.read_bytes()
        except OSError:
            return b"\0unreadable"

    return digest_of((p.relative_to(root).as_posix(), read(p)) for p in page_files(root))
