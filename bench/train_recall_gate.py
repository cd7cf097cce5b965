"""Fit prompt recall's second opinion (kg_actors/core/recall_gate.py) and write its weights.

    .venv/bin/python bench/train_recall_gate.py [--check]

Every prompt of the training splits is asked in-process on its memory as recall_offline asks it (the
memory as the real server stores it, a fresh session after its full read). Each new candidate among its
ranked hits is a row of recall_gate.FEATURES, labelled wanted when it is a lesson the prompt needs that
the session has not seen. A logistic regression with an L2 penalty of 1/2 |w|^2 over standardized
features (scikit-learn's LogisticRegression(C=1) objective, the intercept unpenalized) is fitted by
Newton's method in plain Python, then written back in the features' own units to
kg_actors/core/recall_gate_weights.py. `--check` fits and compares with the weights committed, writing
nothing (exit 1 when they differ by more than 1e-6).

Training splits: memories 1-15 (recall_data and every split written on its memory, recall_memory2_* ..
recall_memory15_*). Memories 12-15 were written to judge the model before they joined its training
(pre-registrations 24, 25 and 28); recall_memory16_* judged the model trained on 1-15 and is never trained on
(pre-registration 29, bench/RESULTS-recall.md).
"""

from __future__ import annotations

import argparse
import importlib
import math
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "bench"), str(ROOT)]

import recall_eval  # noqa: E402
import recall_offline  # noqa: E402
from kg_actors import meaning_table  # noqa: E402
from kg_actors.core import asks, recall, recall_gate  # noqa: E402

OUT = ROOT / "kg_actors" / "core" / "recall_gate_weights.py"
JUDGED_ONLY = ("recall_memory16_",)
PENALTY = 1.0  # 1 / scikit-learn's C


def training_splits() -> list[str]:
    return [s for s in recall_eval.SPLITS if not s.startswith(JUDGED_ONLY)]


def rows_of(name: str) -> list[tuple[list[float], bool]]:
    """(features, wanted) for each new candidate of each prompt of split `name`."""
    data, graph, index, seen = recall_offline.loaded(name)
    views = {"project": (graph, index)}
    held = frozenset(("project", i) for i in seen)
    rows = []
    for p in data["prompts"]:
        text = recall.human_text(p["text"])
        terms = recall.prompt_terms(text) if text else []
        if not text or not terms:
            continue
        needed = {("project", x) for x in p["labels"] if x not in seen}
        query, ranked = recall.search(terms, views, held)
        like = recall.likeness(text, meaning_table.shipped(), {"project": graph})
        for ref, values in recall_gate.candidates(ranked, views, len(terms), len(query.unigrams),
                                                  asks.ask_scale(text), "?" in text, like):
            rows.append((values, ref in needed))
    return rows


def fit(xs: list[list[float]], ys: list[bool]) -> tuple[float, list[float]]:
    """Penalized logistic regression by Newton's method, in the features' own units: (bias, weights)."""
    d = len(xs[0])
    n = len(xs)
    mu = [math.fsum(x[j] for x in xs) / n for j in range(d)]
    sd = [math.sqrt(math.fsum((x[j] - mu[j]) ** 2 for x in xs) / n) or 1.0 for j in range(d)]
    zs = [[1.0] + [(x[j] - mu[j]) / sd[j] for j in range(d)] for x in xs]  # a leading 1 for the intercept
    w = [0.0] * (d + 1)
    for _ in range(50):
        grad = [0.0] * (d + 1)
        hess = [[0.0] * (d + 1) for _ in range(d + 1)]
        for z, y in zip(zs, ys):
            s = math.fsum(a * b for a, b in zip(w, z))
            p = 1.0 / (1.0 + math.exp(-s)) if s > -700 else 0.0
            r = p - y
            q = p * (1.0 - p)
            for i, zi in enumerate(z):
                grad[i] += r * zi
                qi = q * zi
                row = hess[i]
                for j in range(i, d + 1):
                    row[j] += qi * z[j]
        for i in range(1, d + 1):  # the penalty, on the weights and not the intercept
            grad[i] += PENALTY * w[i]
            hess[i][i] += PENALTY
        for i in range(d + 1):
            for j in range(i):
                hess[i][j] = hess[j][i]
        step = _solve(hess, grad)
        w = [a - b for a, b in zip(w, step)]
        if max(abs(s) for s in step) < 1e-10:
            break
    weights = [w[j + 1] / sd[j] for j in range(d)]
    bias = w[0] - math.fsum(w[j + 1] * mu[j] / sd[j] for j in range(d))
    return bias, weights


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """a x = b for a symmetric positive definite a (Cholesky)."""
    n = len(b)
    low = [[0.0] * n for _ in range(n)]
    for i in range(n):
        for j in range(i + 1):
            s = a[i][j] - math.fsum(low[i][k] * low[j][k] for k in range(j))
            low[i][j] = math.sqrt(s) if i == j else s / low[j][j]
    y = [0.0] * n
    for i in range(n):
        y[i] = (b[i] - math.fsum(low[i][k] * y[k] for k in range(i))) / low[i][i]
    x = [0.0] * n
    for i in reversed(range(n)):
        x[i] = (y[i] - math.fsum(low[k][i] * x[k] for k in range(i + 1, n))) / low[i][i]
    return x


def render(bias: float, weights: list[float], ranges: list[tuple[float, float]], splits: list[str], n_rows: int,
           n_wanted: int, like_unknown: float) -> str:
    lines = [f'"""Weights of recall_gate\'s model, written by bench/train_recall_gate.py (do not edit by hand).',
             "",
             f"Fitted on {n_rows:,} candidates ({n_wanted:,} wanted) of {len(splits)} splits: memories 1-15 of bench/",
             "(recall_data and the splits on its memory, recall_memory2_* .. recall_memory15_*). Refit after changing",
             "recall_gate.FEATURES or what they read. RANGES: each feature's least and greatest value in training; the",
             "model reads a value held within them (a linear model far outside what it was fitted on says nothing).",
             "LIKE_UNKNOWN: the mean likeness in meaning of the candidates in training, read where none can be told.",
             '"""',
             "",
             f"BIAS = {bias!r}",
             f"LIKE_UNKNOWN = {like_unknown!r}",
             "WEIGHTS = (",
             *(f"    {w!r},  # {name}" for w, name in zip(weights, recall_gate.FEATURES, strict=True)),
             ")",
             "RANGES = (",
             *(f"    ({lo!r}, {hi!r}),  # {name}" for (lo, hi), name in zip(ranges, recall_gate.FEATURES, strict=True)),
             ")",
             ""]
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="compare with the committed weights; write nothing")
    args = ap.parse_args()
    started = time.monotonic()
    splits = training_splits()
    xs: list[list[float]] = []
    ys: list[bool] = []
    for name in splits:
        for values, wanted in rows_of(name):
            xs.append(values)
            ys.append(wanted)
    bias, weights = fit(xs, ys)
    print(f"{len(xs)} candidates, {sum(ys)} wanted, {len(splits)} splits; fitted in {time.monotonic() - started:.0f} s")
    if args.check:
        from kg_actors.core import recall_gate_weights as held
        worst = max(abs(a - b) for a, b in zip((bias, *weights), (held.BIAS, *held.WEIGHTS), strict=True))
        print(f"largest difference from the committed weights: {worst:.2e}")
        return 0 if worst <= 1e-6 else 1
    ranges = [(min(x[j] for x in xs), max(x[j] for x in xs)) for j in range(len(xs[0]))]
    like_unknown = math.fsum(x[recall_gate.FEATURES.index("like")] for x in xs) / len(xs)
    OUT.write_text(render(bias, weights, ranges, splits, len(xs), sum(ys), like_unknown))
    print(f"wrote {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
