"""The fast `.eval` reader's field parser (`eval_reader.top_fields`, `skip_value`) reads
exactly what a full JSON parse gives, on generated objects whose strings hold quotes,
backslashes, brackets and the wanted keys themselves."""

from __future__ import annotations

import json
import random

import pytest

from infoseek.inspect_tasks.report import eval_reader

WANTED = eval_reader.FULL_FIELDS
KEYS = ["id", "epoch", "input", "messages", "scores", "metadata", "store", "events", "z"]


def _value(rng: random.Random, depth: int = 0):
    roll = rng.random()
    if depth > 3 or roll < 0.3:
        return rng.choice([1, -2.5e10, 12345678901234, True, False, None, 'x"y\\', "é{[}]",
                           "", "\\", 0.1, '"store": {', "\\\"]"])
    if roll < 0.65:
        return [_value(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    return {rng.choice(["id", "store", "a", 'b"c', "{"]): _value(rng, depth + 1)
            for _ in range(rng.randint(0, 4))}


def _texts(count: int):
    rng = random.Random(33)
    for _ in range(count):
        keys = rng.sample(KEYS, rng.randint(0, len(KEYS)))
        whole = {key: _value(rng) for key in keys}
        yield whole, json.dumps(whole, ensure_ascii=rng.random() < 0.5,
                                indent=rng.choice([None, 1]))


def test_top_fields_reads_what_a_full_parse_gives() -> None:
    for whole, text in _texts(1500):
        expected = {}
        for key in whole:  # the wanted fields up to the last one wanted
            if key in WANTED:
                expected[key] = whole[key]
        got = eval_reader.top_fields(text, WANTED)
        assert got == expected, text
        assert [type(v) for v in got.values()] == [type(v) for v in expected.values()]


def test_skip_value_ends_where_the_decoder_ends() -> None:
    decoder = json.JSONDecoder()
    for _whole, text in _texts(500):
        assert eval_reader.skip_value(text + " ,", 0) == decoder.raw_decode(text, 0)[1]


@pytest.mark.parametrize("text", ['{"input": [1, "]", {"a": "}"', '{"input": "abc',
                                  '{"messages": [[]', '{"input": ', '{"input": 1'])
def test_a_cut_sample_is_an_error_not_a_short_read(text) -> None:
    with pytest.raises(ValueError):
        eval_reader.top_fields(text, WANTED)
