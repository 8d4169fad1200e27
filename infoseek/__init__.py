"""infoseek core: the formal model of underspecified problems and exact algorithms over it.

This package is pure: it never imports Inspect or the outer layers, except its two
front doors `infoseek.cli` and `infoseek._registry`.
"""

__version__ = "0.1.0"
