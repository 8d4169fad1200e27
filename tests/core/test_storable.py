"""`storable`: a JSON-like value whose every text (keys included) UTF-8 can encode.

Its fast path writes a container as JSON text once and returns the value itself when that
text encodes; these tests hold it to a plain referee walk (`walked`, every text through
`storable_text`) on values with and without lone surrogates, and on values JSON cannot
write.
"""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from infoseek.solvers.text_format import storable
from infoseek.text import storable_text

TEXTS = st.text(alphabet=st.sampled_from(["a", "é", " ", "\ud800", "\udfff", "\U0001f600",
                                          '"', "\\", "\n"]), max_size=6)
LEAVES = st.one_of(TEXTS, st.integers(), st.floats(allow_nan=True), st.booleans(), st.none())
VALUES = st.recursive(
    LEAVES,
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.tuples(inner, inner),
                            st.dictionaries(TEXTS, inner, max_size=4)),
    max_leaves=20,
)


def walked(value):
    """The referee: every text, keys included, made storable; containers rebuilt."""
    if isinstance(value, str):
        return storable_text(value)
    if isinstance(value, dict):
        return {walked(k): walked(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(walked(item) for item in value)
    return value


def encodes(value) -> bool:
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


@settings(max_examples=400, deadline=None)
@given(VALUES)
def test_storable_equals_the_walk_and_keeps_clean_values_as_they_are(value) -> None:
    expected = walked(value)
    cleaned = storable(value)
    assert cleaned == expected or (cleaned != cleaned and expected != expected)  # NaN leaves
    assert encodes(cleaned)
    if encodes(value):
        assert cleaned is value
    else:
        assert cleaned is not value


def test_a_surrogate_deep_inside_is_replaced_and_its_pair_joined() -> None:
    value = {"calls": [{"arguments": {"variable": "x\ud800"}}], "ok": ("fine",),
             "pair": "\ud83d\ude00"}
    cleaned = storable(value)
    assert cleaned["calls"][0]["arguments"]["variable"] == "x\ufffd"
    assert cleaned["pair"] == "\U0001f600"
    assert cleaned["ok"] is value["ok"]


def test_values_json_cannot_write_are_walked_not_refused() -> None:
    marker = object()
    value = {("tuple", "key"): "a\udfff", "set": {1, 2}, "object": marker}
    cleaned = storable(value)
    assert cleaned[("tuple", "key")] == "a\ufffd"
    assert cleaned["set"] == {1, 2} and cleaned["object"] is marker
    clean = {("tuple", "key"): "fine", "object": marker}
    assert storable(clean) is clean
