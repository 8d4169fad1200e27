"""The values of a quantity over the rationals: `RATIONALS`, the domain of a leaf without
a finite domain (it answers membership but refuses to be listed), and `ManyValues`, an
infinite set of possible values held as two exact, attainable witnesses (a frozenset
subclass with a true ``unbounded`` attribute, `infoseek.engine.is_unbounded`).

Shared by the engine (`infoseek.engines.arith.engine`) and its symbolic worlds
(`infoseek.engines.arith.symbolic`), which build these sets; it imports neither.
"""

from __future__ import annotations

from typing import Any

from infoseek.engines.arith.expr import parse_rational


class ManyValues(frozenset):
    """Infinitely many values are possible; the elements are two exact witnesses."""

    unbounded = True

    def __repr__(self) -> str:
        return f"ManyValues({sorted(self)!r} and infinitely many more)"


class _Rationals:
    """The domain of a leaf without a finite domain: every rational; not listable."""

    def __contains__(self, value: Any) -> bool:
        try:
            parse_rational(value)
        except ValueError:
            return False
        return True

    def __iter__(self):
        raise TypeError("the rationals cannot be listed: this arithmetic engine has no "
                        "finite domains (check is_unbounded on its value sets)")

    def __repr__(self) -> str:
        return "RATIONALS"


RATIONALS: Any = _Rationals()
