import pytest
from hypothesis import settings

from kg_actors.testing import ServerProcess

# No wall-clock deadline on examples: on a shared 2-core CI machine a slow example is the machine's
# load, not the code's (a 200 ms default deadline failed a property test once under load).
settings.register_profile("kg", deadline=None)
settings.load_profile("kg")


@pytest.fixture
def server_factory(tmp_path):
    started: list[ServerProcess] = []

    def make(start: bool = True, base=None, extra_env=None, args=()) -> ServerProcess:
        srv = ServerProcess(base or tmp_path / f"srv{len(started)}", extra_env)
        started.append(srv)
        return srv.start(*args) if start else srv

    yield make
    for srv in started:
        srv.kill()


@pytest.fixture
def server(server_factory) -> ServerProcess:
    return server_factory()


@pytest.fixture
def home(tmp_path, monkeypatch):
    """A HOME of the test's own, for servers run in this process (project roots live inside HOME)."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    return home


@pytest.fixture
def linked_file(tmp_path):
    """A file kept elsewhere (a dotfiles or synced folder) and a link to it where the program looks:
    (the link, the file it points to), the file holding b"old"."""
    kept = tmp_path / "elsewhere" / "file.json"
    kept.parent.mkdir()
    kept.write_bytes(b"old")
    link = tmp_path / "here" / "file.json"
    link.parent.mkdir()
    link.symlink_to(kept)
    return link, kept
