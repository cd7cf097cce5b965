"""core/meaning.py: word pieces, the table's format, and likeness in meaning (the shipped table's own sense is
tested in tests/core/test_recall_meaning.py)."""

from __future__ import annotations

import math
import struct

import pytest

from kg_actors import meaning_table
from kg_actors.core import meaning


def table_of(vectors: dict[str, list[float]], mean: list[float] | None = None,
             directions: list[list[float]] | None = None) -> meaning.Table:
    dims = len(next(iter(vectors.values())))
    scales = [max(abs(v) for v in vec) / 127 or 1.0 for vec in vectors.values()]
    values = b"".join(struct.pack(f"{dims}b", *(round(v / s) for v in vec)) for vec, s in zip(vectors.values(), scales))
    raw = meaning.packed(list(vectors), scales, values, mean or [0.0] * dims, directions or [], "a test")
    return meaning.Table(raw)


def test_words_split_as_an_uncased_bert_does():
    assert meaning.words("CrashLoopBackOff in pod_name, naïve!") == [
        "crashloopbackoff", "in", "pod", "_", "name", ",", "naive", "!"]


def test_a_word_is_its_longest_pieces_from_the_left_and_an_unspellable_word_is_none():
    index = {"crash": 0, "##loop": 1, "##lo": 2, "##op": 3, "back": 4, "##off": 5}
    assert meaning.pieces("crashloop", index) == [0, 1]
    assert meaning.pieces("crashlo", index) == [0, 2]
    assert meaning.pieces("crashx", index) == []
    assert meaning.pieces("c" * 101, {"c": 0, "##c": 1}) == []


def test_a_text_is_the_unit_sum_of_its_pieces_less_the_shared_direction():
    table = table_of({"cat": [1.0, 0.0, 0.0], "dog": [0.0, 1.0, 0.0], "##s": [0.0, 0.0, 1.0]},
                     mean=[0.0, 0.0, 0.0], directions=[[0.0, 0.0, 1.0]])
    cats = meaning.vector(table, "Cats!")  # cat + ##s, the third axis taken out as shared
    assert cats is not None
    assert cats == pytest.approx([1.0, 0.0, 0.0], abs=1e-6)
    both = meaning.vector(table, "cat dog")
    assert both is not None and math.isclose(meaning.cosine(cats, both), math.sqrt(0.5), rel_tol=1e-4)
    assert meaning.vector(table, "... !!") is None  # punctuation alone: no word
    assert meaning.vector(table, "zebra") is None  # no piece spells it


def test_likeness_is_none_without_a_table_or_a_prompt(tmp_path):
    table = table_of({"cat": [1.0, 0.0], "dog": [0.0, 1.0]})
    assert meaning.Likeness(None, table)("cat", "a cat", ()) is None
    assert meaning.Likeness("cat", None)("cat", "a cat", ()) is None
    assert meaning.Likeness("cat", table)("pet", "a dog", ("cat",)) == pytest.approx(math.sqrt(0.5), rel=1e-4)
    assert meaning.Likeness("zebra", table)("cat", "a cat", ()) is None


@pytest.mark.parametrize("damage", [
    lambda raw: b"not a table" + raw,
    lambda raw: raw[: len(raw) - 3],
    lambda raw: raw[:20],
    lambda raw: b"",
])
def test_a_damaged_table_is_none(tmp_path, damage):
    good = table_of({"cat": [1.0, 0.0], "dog": [0.0, 1.0]})
    raw = meaning.packed(["cat", "dog"], [1 / 127, 1 / 127], bytes([127, 0, 0, 127]), [0.0, 0.0], [], "a test")
    assert meaning.Table(raw).dims == good.dims
    path = tmp_path / "meaning.bin"
    path.write_bytes(damage(raw))
    assert meaning_table.load(path) is None
    assert meaning_table.load(tmp_path / "missing.bin") is None


def test_a_header_whose_shared_direction_has_another_size_is_refused():
    raw = meaning.packed(["cat"], [1 / 127], bytes([127, 0, 0]), [0.0, 0.0, 0.0], [[1.0, 0.0]], "a test")
    with pytest.raises(ValueError, match="size"):
        meaning.Table(raw)


def test_the_shipped_table_loads_and_spells_common_words():
    table = meaning_table.load(meaning_table.TABLE)
    assert table is not None and table.dims >= 64 and meaning_table.shipped() is not None
    for word in ("commit", "database", "deploy", "timeout"):
        assert meaning.pieces(word, table.index), word


def test_doctor_names_a_missing_or_damaged_table_as_a_warning(tmp_path):
    from kg_actors.setup import doctor

    said: list[str] = []
    report = doctor.Report(type("Ctx", (), {"out": staticmethod(said.append)})())  # doctor reads only ctx.out
    doctor.check_meaning(report, tmp_path / "gone.bin")
    (tmp_path / "cut.bin").write_bytes(meaning_table.TABLE.read_bytes()[:1000])
    doctor.check_meaning(report, tmp_path / "cut.bin")
    doctor.check_meaning(report, meaning_table.TABLE)
    assert report.warnings == 2 and report.problems == 0
    assert said[0] == f"WARN  meaning table: {tmp_path / 'gone.bin'} is missing or damaged: prompt recall reads words only"
    assert said[-1].startswith("ok    meaning table: 29,523 word pieces"), said
