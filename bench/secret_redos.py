"""Fuzz the secret filter's regexes for super-linear time (ReDoS): for every pattern in the secret modules,
texts made of its trigger words and the literal words of its source, repeated, are timed at 5k and 20k
characters. A linear pattern takes about 4x longer at 4x the length; one that takes far more is reported.

    python bench/secret_redos.py [--all] [--whole]

--all: print every pattern's growth, not only the bad ones; --whole: time only the whole filter.
"""

from __future__ import annotations

import re
import sys
import time

from kg_actors.core import secrecy, secret_forms, secret_manifests, secret_names, secret_prose, secret_shapes

_FILLERS = ("", " ", "a", "-", ":", "=", "a1", "/", "_", "x ", ". ", "\t", "0")


def patterns() -> list[tuple[str, re.Pattern[str], tuple[str, ...]]]:
    """Every compiled regex of the secret modules, with the words that trigger it."""
    found: list[tuple[str, re.Pattern[str], tuple[str, ...]]] = []
    for kind, pattern in secret_shapes.SHAPES:
        found.append((kind, pattern, secret_shapes.GATES.get(kind, ())))
    for kind, trigger, rx, _ in (*secret_shapes.SAID_RULES, *secret_forms.FORM_RULES, *secret_prose.PROSE_RULES):
        found.append((f"{kind} [{trigger}]", re.compile(rx), (trigger,)))
    for module in (secrecy, secret_manifests, secret_names, secret_prose, secret_shapes):
        for name, value in vars(module).items():
            if isinstance(value, re.Pattern) and name in _SCANNED:
                found.append((f"{module.__name__}.{name}", value, ()))
    return found


# The module-level patterns run over a whole text (search, finditer, sub); the others only fullmatch a value
# the scanning patterns already bounded, and the whole filter's row times them in place.
_SCANNED = {"DISCORD", "_ANY_BLIND_GATE", "_ANY_GATE", "_CODE_REF", "_HEX_ABOUT", "_INVISIBLE", "_KEYWORD",
            "_NAME_BEFORE", "_OPAQUE", "_PERCENT", "_PRIVATE_TAG", "_SECRET_TALK", "_SHORT", "_UUID",
            "_KIND", "_BLOCK", "_DOCUMENT_BREAK"}  # secret_manifests': a manifest's documents and blocks


def pieces(pattern, triggers: tuple[str, ...]) -> set[str]:
    source = pattern.pattern if isinstance(pattern, re.Pattern) else ""
    words = set(triggers) | set(re.findall(r"[A-Za-z][A-Za-z_.:/-]{1,20}", source.replace("\\", " ")))
    return {w for w in words if w} | {"<private a=1 ", "a://a:", "http://x:", "a:1:"}


def texts(piece: str, n: int, lead: str = ""):
    for filler in _FILLERS:
        unit = piece + filler
        yield lead + unit * max(1, n // len(unit))
        yield lead + piece + filler * max(1, (n - len(piece)) // max(1, len(filler)))
        yield lead + (filler or "a") * max(1, n // max(1, len(filler))) + " " + piece


def worst(pattern, triggers: tuple[str, ...], budget: float = 0.05) -> tuple[float, str]:
    """The largest 5k->20k growth of `pattern.search` over texts of its pieces (only texts slow enough to tell)."""
    ratio, what = 0.0, ""
    run = pattern if callable(pattern) else lambda text: list(pattern.finditer(text))
    cases = [(p, "") for p in sorted(pieces(pattern, triggers))]
    if isinstance(pattern, re.Pattern):  # the whole filter's triggers are many: each alone, repeated
        cases += [(p, t + " ") for t in triggers for p in sorted(pieces(pattern, ())) if p != t]
    for piece, lead in cases:
        for small, large in zip(texts(piece, 5000, lead), texts(piece, 20000, lead)):
            t0 = time.perf_counter()
            run(small)
            t1 = time.perf_counter()
            if t1 - t0 < 0.002:
                continue  # too fast to tell growth from noise
            run(large)
            t2 = time.perf_counter()
            if (t2 - t1) / (t1 - t0) > ratio:
                ratio, what = (t2 - t1) / (t1 - t0), f"{small[:40]!r} ({t1 - t0:.3f}s -> {t2 - t1:.3f}s)"
            if t2 - t1 > budget * 40:
                return ratio, what
    return ratio, what


def main() -> int:
    bad = 0
    every = tuple(sorted({t for _, _, triggers in patterns() for t in triggers}))
    whole = [("the whole filter (find)", secrecy.find, every)]
    for name, pattern, triggers in (whole if "--whole" in sys.argv else patterns() + whole):
        ratio, what = worst(pattern, triggers)
        if ratio > 8 or "--all" in sys.argv:
            print(f"{ratio:6.1f}x  {name}: {what}", flush=True)
            bad += ratio > 8
    print(f"{bad} super-linear pattern(s)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
