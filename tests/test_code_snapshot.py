"""The code a server holds from its start: a traceback through it shows its own source, not a newer file's."""

from __future__ import annotations

import sys
import traceback

from kg_actors.code_snapshot import HeldCode, held_codes


def test_a_traceback_through_held_code_shows_the_held_source_after_the_file_changed(tmp_path, monkeypatch):
    pkg = tmp_path / "heldpkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "mod.py").write_text("def f():\n    x = 1\n    raise ValueError('boom in held code')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    import heldpkg  # noqa: F401  # imported before the hold, as the server's own modules are

    held = HeldCode(held_codes(pkg, "heldpkg."))
    monkeypatch.setattr(sys, "meta_path", [held, *sys.meta_path])
    # An upgrade rewrites the file: other lines at the held code's line numbers.
    (pkg / "mod.py").write_text("# an upgrade added a comment line\n# and another\ndef f():\n    return 'new code'\n")
    try:
        import heldpkg.mod

        heldpkg.mod.f()
        raise AssertionError("the held code was not run")
    except ValueError:
        shown = traceback.format_exc()
    finally:
        for name in ("heldpkg.mod", "heldpkg"):
            sys.modules.pop(name, None)
    assert "raise ValueError('boom in held code')" in shown, shown
    assert "return 'new code'" not in shown and "def f():" not in shown.split("line 3, in f", 1)[1], shown
