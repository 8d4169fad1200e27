"""infoseek core: the formal model of underspecified problems and exact algorithms over it.

This package is pure: it never imports Inspect or the outer layers, except its front
door `infoseek.cli` (the `infoseek` command). The inspect_ai entry point lives with the
tasks it registers (`infoseek.inspect_tasks._registry`).
"""

__version__ = "0.1.0"
