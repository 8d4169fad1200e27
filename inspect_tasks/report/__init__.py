"""`infoseek report`: the papers' tables and figures, and one HTML page, from logs.

Logs are read with `inspect_ai.analysis` (`reading`); what each task shows is declared
once per protocol (`declarations`) and named by the task's
``Task(metadata={"report": ...})``; published numbers come from the project's own data
file (`published.json`, `published`). It lives in the task layer (it reads Inspect logs,
runs `eval_set` and uses the scorers' pure helpers); the `infoseek` command calls it.
"""

from infoseek.inspect_tasks.report.build import Report, build_report
from infoseek.inspect_tasks.report.declarations import TaskReport, register_task_report
from infoseek.inspect_tasks.report.reading import ReportError

__all__ = ["Report", "ReportError", "TaskReport", "build_report", "register_task_report"]
