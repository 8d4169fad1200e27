"""The story templates as data files: loading checks them (errors name the file, the
template and the field), and the data version follows their content hash."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import infoseek.builders.math.gsme_mt as gsme_mt
import infoseek.builders.math.incomplete_math as incomplete_math
from infoseek.builders.math.templates import (
    TEMPLATES,
    TEMPLATES_CONTENT_HASH,
    TemplateFileError,
    load_templates,
    templates_content_hash,
)
from infoseek.builders.math.templates.loader import TEMPLATE_DIR, template_data_files

TINY = '''
[[template]]
id = "tiny-sum"
theme = "shopping"
cast = ["kid"]
goal = "total"
question = "How many does {kid} have?"

[[template.quantity]]
name = "apples"
description = "apples the kid has"
between = [1, 5]
sentence = "{kid} has {value} apples."

[[template.quantity]]
name = "pears"
description = "pears the kid has"
draw = "apples * n"
ranges = { n = [1, 3] }
sentence = "{kid} has {value} pears."

[[template.quantity]]
name = "total"
description = "fruit in all"
expr = "apples + pears"
sentence = "The fruit in all is the apples plus the pears."
'''


def _folder(tmp_path: Path, text: str) -> Path:
    """A template folder holding the real collection file and one template file."""
    shutil.copy(TEMPLATE_DIR / "collection.toml", tmp_path / "collection.toml")
    (tmp_path / "tiny.toml").write_text(text, encoding="utf-8")
    return tmp_path


def test_tiny_file_loads(tmp_path):
    [template] = load_templates(_folder(tmp_path, TINY))
    assert template.id == "tiny-sum"
    assert template.leaves == ("apples", "pears")
    assert template.quantity("pears").draw.ranges == (("n", 1, 3),)


@pytest.mark.parametrize(("old", "new", "message"), [
    ('expr = "apples + pears"', 'expr = "apples ** pears"',
     "tiny.toml: template 'tiny-sum': quantity 'total' expr: "),
    ('expr = "apples + pears"', 'expr = "apples + plums"',
     "tiny.toml: template 'tiny-sum': quantity 'total' expr: unknown quantity 'plums'"),
    ('draw = "apples * n"', 'draw = "total * n"',
     "tiny.toml: template 'tiny-sum': quantity 'pears' draw: unknown quantity 'total'"),
    ('goal = "total"\n', '',
     "tiny.toml: template 'tiny-sum': goal: is missing"),
    ('description = "fruit in all"\n', '',
     "tiny.toml: template 'tiny-sum': quantity 'total' description: is missing"),
    ('between = [1, 5]', 'between = [1, "5"]',
     "tiny.toml: template 'tiny-sum': quantity 'apples' between: must be a [low, high]"),
    ('ranges = { n = [1, 3] }\n', '',
     "tiny.toml: template 'tiny-sum': quantity 'pears' ranges: is missing"),
    ('sentence = "{kid} has {value} apples."', 'sentence = "{kid} has apples."',
     "tiny.toml: template 'tiny-sum': quantity 'apples' sentence: has placeholders"),
    ('theme = "shopping"', 'theme = "astronomy"',
     "tiny.toml: template 'tiny-sum': theme: 'astronomy' is not listed in collection.toml"),
    ('name = "total"\n', 'name = "total"\ncolour = "red"\n',
     "tiny.toml: template 'tiny-sum': quantity 'total': unknown fields ['colour']"),
    ('id = "tiny-sum"\n', '',
     "tiny.toml: template #1: id: is missing"),
    ('[[template]]', '[[template]\n',
     "tiny.toml: not valid TOML"),
])
def test_broken_file_names_file_template_and_field(tmp_path, old, new, message):
    assert old in TINY
    folder = _folder(tmp_path, TINY.replace(old, new, 1))
    with pytest.raises(TemplateFileError) as caught:
        load_templates(folder)
    assert str(caught.value).startswith(message), str(caught.value)


def test_repeated_id_names_both_files(tmp_path):
    folder = _folder(tmp_path, TINY)
    (folder / "more.toml").write_text(TINY, encoding="utf-8")
    with pytest.raises(TemplateFileError, match="tiny.toml: template 'tiny-sum': id: already "
                                                "used in more.toml"):
        load_templates(folder)


def test_collection_order_follows_the_theme_list(tmp_path):
    second = TINY.replace('"tiny-sum"', '"tiny-savings"').replace('"shopping"', '"savings"')
    folder = _folder(tmp_path, second + TINY)
    assert [t.id for t in load_templates(folder)] == ["tiny-sum", "tiny-savings"]


def test_package_files_load_to_the_collection(tmp_path):
    for path in template_data_files():
        shutil.copy(path, tmp_path / path.name)
    assert load_templates(tmp_path) == TEMPLATES
    assert templates_content_hash(tmp_path) == TEMPLATES_CONTENT_HASH


def test_hash_changes_with_the_bytes_and_only_with_them(tmp_path):
    folder = _folder(tmp_path, TINY)
    before = templates_content_hash(folder)
    (folder / "tiny.toml").write_text(TINY, encoding="utf-8")  # rewritten, same bytes
    assert templates_content_hash(folder) == before
    (folder / "tiny.toml").write_text(TINY + "\n", encoding="utf-8")  # one more byte
    assert templates_content_hash(folder) != before
    (folder / "tiny.toml").write_text(TINY, encoding="utf-8")
    assert templates_content_hash(folder) == before
    shutil.copy(folder / "tiny.toml", folder / "copy.toml")  # a new file
    assert templates_content_hash(folder) != before


@pytest.mark.parametrize("builder", [gsme_mt, incomplete_math])
def test_data_version_is_the_builder_version_plus_the_content_hash(builder):
    spec = builder.SPEC
    assert spec.data_hash == TEMPLATES_CONTENT_HASH[:12]
    assert spec.data_version == f"{spec.version}+{TEMPLATES_CONTENT_HASH[:12]}"
    # The records carry the builder version alone, so they stay byte-identical when a
    # template file only moves; the generators keep the text they were first seeded with.
    assert "+" not in spec.version
    assert spec.random_stream.endswith("+templates-1.0.0")

