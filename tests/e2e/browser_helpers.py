"""A real headless Chromium for the editor's browser tests: Debian's `chromium` (browsers cannot be
downloaded here), one browser per module, a page per test that collects the page's own errors."""

from __future__ import annotations

import contextlib
import shutil
from collections.abc import Iterator
from typing import Any

import pytest

CHROMIUM = shutil.which("chromium")
needs_chromium = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]


@contextlib.contextmanager
def launched() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield b
        finally:
            b.close()


@contextlib.contextmanager
def watched_page(browser: Any, width: int, wait_ms: int) -> Iterator[Any]:
    """A page of its own context, `page.problems` the page errors it met."""
    context = browser.new_context(viewport={"width": width, "height": 900})
    p = context.new_page()
    p.set_default_timeout(wait_ms)
    p.problems = []
    p.on("pageerror", lambda e: p.problems.append(f"pageerror: {e}"))
    try:
        yield p
    finally:
        context.close()
