"""`infoseek report`: the papers' tables and figures, and one HTML page, from logs.

Logs are read with `inspect_ai.analysis` (`infoseek.report.reading`); what each task
shows is declared per task (`infoseek.report.declarations`); published numbers come from
the project's own data file (`published.json`, `infoseek.report.published`). Part of the
`infoseek` command (a front door: it reads Inspect logs and the scorers' pure helpers).
"""

from infoseek.report.build import Report, build_report
from infoseek.report.declarations import TaskReport, register_task_report
from infoseek.report.reading import ReportError

__all__ = ["Report", "ReportError", "TaskReport", "build_report", "register_task_report"]
