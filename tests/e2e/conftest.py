import pytest
from mcp import Client


@pytest.fixture
async def client(srv):
    """The official MCP SDK client, over HTTP, on the module's server (`srv`)."""
    async with Client(srv.url + "/") as c:
        yield c
