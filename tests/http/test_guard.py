"""Domain errors become REST statuses in one table, by their nearest class."""

from kg_actors.core.errors import ActorStopped, Conflict, InvalidInput, KGError, NotFound, SessionUnknown, WriteConflict
from kg_actors.http.guard import PayloadTooLarge, error_response, status_of
from kg_actors.http.rest_store import GitFailed


def test_each_domain_error_has_its_status_and_a_subclass_takes_its_parents():
    assert status_of(InvalidInput("id", "is required")) == 400
    assert status_of(NotFound("x")) == status_of(SessionUnknown("x")) == 404
    assert status_of(WriteConflict("user", "a", {}, "stale")) == status_of(Conflict("x")) == 409
    assert status_of(GitFailed("merge failed")) == 409
    assert status_of(ActorStopped("x")) == 503
    assert status_of(PayloadTooLarge("x")) == 413
    assert status_of(KGError("refused")) == 400


def test_an_invalid_input_names_the_field_and_the_rule():
    response = error_response(InvalidInput("level", "is not one of user, project, maintain"))
    assert response.status_code == 400
    assert b'"field":"level"' in response.body and b'"rule":"is not one of user' in response.body


async def test_a_client_gone_before_its_body_is_whole_is_not_an_error(caplog):
    """A hook's client that gave up mid-body is routine: no traceback at ERROR, and a 400 nobody reads."""
    from starlette.requests import Request

    from kg_actors.http.guard import guarded, json_body

    parts = iter([{"type": "http.request", "body": b'{"prompt": "how do', "more_body": True},
                  {"type": "http.disconnect"}])

    async def receive():
        return next(parts)

    async def handler(request):
        await json_body(request)
        raise AssertionError("a body that never came whole was used")

    scope = {"type": "http", "method": "POST", "path": "/api/prompt_context", "headers": [], "query_string": b""}
    response = await guarded(handler)(Request(scope, receive))
    assert response.status_code == 400 and b"disconnected" in response.body
    assert not [r for r in caplog.records if r.levelname == "ERROR"]


async def test_a_body_of_another_type_than_json_is_refused_by_name():
    """A page can send text/plain, a form or a beacon to another origin without the browser asking first."""
    from starlette.requests import Request

    from kg_actors.core.errors import InvalidInput
    from kg_actors.http.guard import json_body

    def request(content_type: bytes | None, body: bytes) -> Request:
        parts = iter([{"type": "http.request", "body": body, "more_body": False}])

        async def receive():
            return next(parts)
        headers = [(b"content-type", content_type)] if content_type else []
        return Request({"type": "http", "method": "POST", "path": "/api/nodes", "headers": headers,
                        "query_string": b""}, receive)

    for content_type in (b"text/plain", b"application/x-www-form-urlencoded", None):
        try:
            await json_body(request(content_type, b'{"id": "x"}'))
        except InvalidInput as exc:
            assert exc.field == "content-type"
        else:
            raise AssertionError(f"{content_type!r} was read")
    assert await json_body(request(b"application/json; charset=utf-8", b'{"id": "x"}')) == {"id": "x"}
    assert await json_body(request(None, b"")) == {}  # no body: nothing to refuse
