"""A `-T` parameter reads the same in every task that takes it: each `Args:` entry starts
with its parameter's one canonical sentence (the text up to the first "(" or ".",
whitespace normalised), and only what follows it (a parenthesis with the task's range,
default or domain word, "unused with source") differs from task to task.
"""

from __future__ import annotations

import ast
import re

from tests.tasks.test_task_docs import documented_args, task_functions_in_files


def leading_sentence(text: str) -> str:
    """The text of an Args entry up to its first "(" or "." (whitespace normalised)."""
    return " ".join(re.split(r"[(.]", text, maxsplit=1)[0].split())


def leading_sentences(docs: dict[str, str]) -> dict[str, dict[str, list[str]]]:
    """Parameter -> {leading sentence: the tasks whose Args entry starts with it}, from
    `docs` (task name -> its docstring)."""
    found: dict[str, dict[str, list[str]]] = {}
    for task_name, doc in sorted(docs.items()):
        for parameter, text in documented_args(doc).items():
            found.setdefault(parameter, {}).setdefault(leading_sentence(text), []).append(
                task_name)
    return found


def differing_wordings(docs: dict[str, str]) -> dict[str, dict[str, list[str]]]:
    """The parameters of `leading_sentences(docs)` with more than one leading sentence."""
    return {parameter: sentences for parameter, sentences in leading_sentences(docs).items()
            if len(sentences) > 1}


def test_every_parameter_starts_with_one_sentence_in_every_task():
    docs = {name: ast.get_docstring(node) or ""
            for name, node in task_functions_in_files().items()}
    assert docs
    assert differing_wordings(docs) == {}, (
        "a parameter's Args entries start with different sentences across tasks; use the "
        "one canonical sentence and put the task's specifics in a parenthesis after it")


def test_differing_wordings_catches_a_difference():
    one = """Task one.

    Args:
        seed: the random seed (of the builder;
            default 0).
        k: degrees of underspecification to include (1..4).
    """
    two = """Task two.

    Args:
        seed: the   random seed.
        k: degrees to include (1..4).
    """
    assert leading_sentence("the random\n  seed (x). y") == "the random seed"
    assert differing_wordings({"one": one, "two": two}) == {
        "k": {"degrees of underspecification to include": ["one"],
              "degrees to include": ["two"]}}
    assert differing_wordings({"one": one, "three": one}) == {}
