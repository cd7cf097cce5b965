"""GET /api/graph/read: the stored graphs as they are. A folder with no stored graph is answered 404, as the
editor's reads answer it, and nothing is stored for it (the whole server runs in this process)."""

from __future__ import annotations

import json
from urllib.parse import urlencode

from inprocess import asgi, serve_inprocess, sessions_of

from kg_actors.conduct import write as write_uc


async def test_a_read_of_a_folder_with_no_stored_graph_is_404_and_stores_nothing(tmp_path, home):
    stranger, known = home / "any-folder", home / "known-proj"
    stranger.mkdir()
    known.mkdir()
    async with serve_inprocess(tmp_path / "store") as rt:
        (a,) = await sessions_of(rt, known, "claude-a")
        await write_uc.put_node(rt.floor, a, "project", "known-lesson", "a stored lesson", None, None)
        for reload in ("false", "true"):
            status, body = await asgi(rt, "GET", "/api/graph/read",
                                      query=urlencode({"project_path": str(stranger), "reload": reload}))
            assert status == 404 and str(stranger) in json.loads(body)["error"], body
        assert not rt.directory.is_stored(await rt.directory.project_key(str(stranger)))
        status, body = await asgi(rt, "GET", "/api/graph/read", query=urlencode({"project_path": str(known)}))
        assert status == 200 and [n["id"] for n in json.loads(body)["project"]["nodes"]] == ["known-lesson"]
