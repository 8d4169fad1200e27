"""Every builder declares itself once, in its own module (docs/architecture.md, "Adding a
domain" and "Names"): one `BuilderSpec` per builder, listed by the domain's declaration,
with a `MAJOR.MINOR.PATCH` version, a data version that adds the data files' hash, and a
random stream of its own."""

from __future__ import annotations

import importlib
import re
from importlib.metadata import entry_points

import pytest

from infoseek.builders.math import incomplete_math
from infoseek.domains import ENTRY_POINT_GROUP, BuilderSpec, get_domain, is_built_in, resolve

SEMANTIC = re.compile(r"\d+\.\d+\.\d+")
HASH = re.compile(r"[0-9a-f]{12}")
LOOSE = ("BUILDER_NAME", "BUILDER_VERSION", "CACHE_VERSION", "RANDOM_STREAM", "MAX_K",
         "DEFAULT_PER_K", "DEFAULT_KS", "DEFAULT_COUNT")
"""The constants each builder module kept before its spec held them."""


def built_in_specs() -> list[BuilderSpec]:
    domains = [get_domain(e.name) for e in entry_points(group=ENTRY_POINT_GROUP)
               if is_built_in(e)]
    return [spec for domain in domains for spec in domain.builders] + [incomplete_math.SPEC]


SPECS = built_in_specs()


def test_every_built_in_builder_is_declared():
    assert {s.name for s in SPECS} == {
        "logic-mt", "logic-mt-hard", "logic-q", "gsme-mt-ext", "gsme-mt-ext-hard", "gsme-mt",
        "incomplete-math", "genereg", "clinguide", "planning-q", "planning-q-plan-set",
        "planning-mt",
        "twenty-questions"}


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.name)
def test_the_spec_lives_in_the_module_that_builds(spec: BuilderSpec):
    assert isinstance(spec.build, str)
    module_name, _, function = spec.build.partition(":")
    module = importlib.import_module(module_name)
    assert callable(resolve(spec.build)) and function.startswith("build")
    owners = [name for name, value in vars(module).items() if value is spec]
    assert owners and all(name.endswith("SPEC") for name in owners), owners
    assert not [name for name in LOOSE if hasattr(module, name)]


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.name)
def test_versions_have_one_form(spec: BuilderSpec):
    assert SEMANTIC.fullmatch(spec.version), spec.version
    if spec.data_hash is None:
        assert spec.data_version == spec.version
    else:
        assert HASH.fullmatch(spec.data_hash), spec.data_hash
        assert spec.data_version == f"{spec.version}+{spec.data_hash}"
    assert spec.random_stream and spec.version not in spec.random_stream.split(":")[0]


SHARED_STREAMS = {frozenset({"planning-q", "planning-q-plan-set"})}
"""Builders that share a random stream on purpose: Planning-Q under its two tie
conventions judges the same candidate rows (`builders.planning.planning_q.PLAN_SET_SPEC`)."""


def test_random_streams_are_distinct():
    by_stream: dict[str, set[str]] = {}
    for spec in SPECS:
        by_stream.setdefault(spec.random_stream, set()).add(spec.name)
    shared = {frozenset(names) for names in by_stream.values() if len(names) > 1}
    assert shared == SHARED_STREAMS


def test_a_spec_without_data_or_stream_keys_on_its_version_and_name():
    """A plug-in's spec written before `data_hash` and `random_stream` existed."""
    spec = BuilderSpec(name="echo-mt", build=lambda *a, **k: [], version="echo-1", max_k=2,
                       default_per_k=3, max_per_k=10)
    assert spec.data_version == "echo-1"
    assert spec.random_stream == "echo-mt"
    assert spec.ks == (1, 2)
