"""The version every infoseek task carries (Inspect's `Task(version=...)`, kept in the log
as `eval.task_version`; Inspect accepts an int or a string, and `eval-set` compares it when
it decides whether an earlier log still counts).

Format: ``"<eval version>/<builder>@<data version>"``, e.g. ``"2-A/logic-mt@1.1.0"`` or
``"2-A/gsme-mt@1.1.0+0dfd177f02a1"``:

- the **eval version** `EVAL_VERSION`, ``"N-X"`` as `inspect_evals` numbers its evals. N (a
  whole number) moves when results stop being comparable with earlier logs: a prompt
  text, a scorer, a metric or how a reply is read changed. X (a capital letter) moves when
  only the interface changed and results stay comparable: a new parameter whose default
  keeps today's behaviour, a renamed file or option. Moving N resets X to ``A``. One eval
  version covers every task of the suite: the tasks share their prompts, readers and
  scorers.
- after the ``/``, the **data version**: the builder's name (what `infoseek build` takes)
  and the version its dataset cache keys on (`infoseek.domains.BuilderSpec.data_version`:
  the builder's version and, for builders reading data files, their content hash). It moves
  whenever the built records may. With ``-T source=...`` the records come from that file
  (named in the log's task arguments); the version still names the builder that reads
  and checks them.

`EVAL_FINGERPRINT` pins what N vouches for: a hash of the prompt texts that reach the
model, the scorer names and the metric names of every task
(`tests/tasks/test_eval_version.py` computes it and says what to do when it moves).
"""

from __future__ import annotations

EVAL_VERSION = "6-A"
"""The eval version, ``"N-X"`` (module docstring). Move N, and reset X to ``A``, when a
prompt, scorer or metric changes; move X alone for an interface-only change.

History (one line per move, with why):

- ``1-A``: the first eval version.
- ``2-A``: the seek protocol's final-answer scorer is renamed ``answer`` -> ``final_answer``
  (``answer`` is also Inspect's built-in scorer): scorer names are part of what N
  vouches for, so N moves, although every score value and metric is unchanged. The
  report reads logs of ``1-A`` under the new name
  (`infoseek.scorers.recorded_names.RENAMED_SCORERS`). Its hash also takes in the
  Twenty Questions domain's new name (``twenty_q`` -> ``twenty_questions``, the key its
  wording is hashed under), an interface-only change made just before.
- ``3-A``: one reading of a reply in every protocol (issue 30): the whole reply is read,
  an answer needs an answer line, every prompt states that rule and shows filled
  examples, the incomplete-questions user is structured by default, and every
  model-backed role is measured (new ``role_*`` metrics), Twenty Questions reads the
  examiner's reply whole and refuses echoed placeholders; issue 31's first items (the
  Planning-Q ``ties`` parameter and depth axes, Twenty Questions list parameters) came in
  the same move. Scores of the same replies can differ from ``2-A``.
- ``4-A``: the papers' data (issue 31): Planning-Q is built by backward search with
  "No questions needed" rows (planning builders 1.2.0), the Twenty Questions Thing pool
  mixes kinds like THING200 and the table holds rows for the paper's lists; an answer
  line beside the answer call that does not read makes the turn ambiguous (tool format).
  Tasks also declare their Inspect View headline and columns and carry tags (no score
  changes). Scores on Planning-Q and the Thing pool are not comparable with ``3-A``.
- ``5-A``: Planning-Q keeps the published tie convention by default (one plan per
  state, builder planning-q 1.3.0; ``-T ties=plan_set`` builds the plan-set split), and
  the bfs-D references settle only rows within depth D; new seek settings (issue 34):
  the withholding oracle (``-T oracle=withholding``, its ``withholding`` scorer) and
  problems no question can settle (``-T unanswerable=``, the "cannot be determined"
  answer form, the ``undetermined`` scorer); the plan scorer no longer reads an
  "unsure" reply as an atom value. Default prompts and readings are unchanged ("cannot
  be determined" is read as that answer form only where a task offers it), but
  planning plan scores under the random oracle and Planning-Q's default split differ
  from ``4-A``.
- ``6-A``: incomplete_questions' asking tool is renamed ``ask_user`` -> ``ask_question``
  (Inspect has its own ``ask_user``); the tool-format prompts and the judge's transcript
  name it (a call of the old name is still read as a question). Where "cannot be
  determined" is offered, a self-correction, an alternative or a retraction after it
  (``; correction: yes``, ``. On second thought, ...``) makes the answer ambiguous; it
  was credited. The ``ask`` / ``answer`` tools now run (an agent such as ``react()``
  can play with ``-T solver=react``); the built-in loop's records are unchanged.
  Scores of incomplete_questions in the tool format and of offered "cannot be
  determined" answers are not comparable with ``5-A``."""

EVAL_FINGERPRINT = "4c435b79888c2cd0"
"""The hash of the prompt texts, scorer names and metric names that `EVAL_VERSION`'s N
vouches for (`tests/tasks/test_eval_version.py`): when the test reports a new hash, move N
(results are no longer comparable) and set this to the new hash."""


def task_version(builder: str, data_version: str) -> str:
    """A task's version: ``"<EVAL_VERSION>/<builder>@<data_version>"`` (module docstring),
    e.g. ``task_version("logic-mt", "1.1.0") == "3-A/logic-mt@1.1.0"``."""
    return f"{EVAL_VERSION}/{builder}@{data_version}"
