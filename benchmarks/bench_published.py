"""Released data in its source formats: loading and re-verification at full split size, measured
in one run.

    python benchmarks/bench_published.py            # default splits (800 logic, 520 Ext)
    python benchmarks/bench_published.py --quick    # 25 problems per k

Our own built splits are written in the released column layouts (Logic-Q-MT, QuestBench
Logic-Q from the k = 1 problems, GSME-Q-MT from the story templates, GSME-Q-MT-Ext), then
read back with the loaders and
re-verified by `infoseek verify`'s driver. Every builder record passed the exact
validator when it was built, so every row must agree: the printed agree/disagree counts
are a full-size consistency check between builders, loaders and verifiers, and the times
say how long a released file of that size takes (rows per second).
"""

from __future__ import annotations

import argparse
import csv
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "support" / "fixtures" / "published"))

from write_gsme_fixtures import EXT_COLUMNS, released_row
from write_gsme_fixtures import MT_COLUMNS as GSME_COLUMNS

from infoseek.builders.logic import logic_mt
from infoseek.builders.logic.released.rows import (
    MT_COLUMNS,
    QUESTBENCH_COLUMNS,
    mt_row_from_record,
    questbench_row_from_record,
)
from infoseek.builders.math import gsme_mt, gsme_mt_ext
from infoseek.builders.published import load_published
from infoseek.builders.published.verify import verify_source


def write(path: Path, columns, rows) -> None:
    with open(path, "w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(columns))
        writer.writeheader()
        writer.writerows(rows)


def measure(label: str, path: Path, fmt: str, out: Path) -> None:
    start = time.perf_counter()
    records = load_published(str(path), fmt)
    load_s = time.perf_counter() - start
    summary = verify_source(str(path), fmt, out_dir=out / fmt)
    rate = summary["rows"] / summary["seconds"]
    print(f"{label:<28} rows={summary['rows']:<5} load {load_s:6.2f} s   verify "
          f"{summary['seconds']:6.2f} s ({rate:6.1f} rows/s)   agree={summary['agree']} "
          f"disagree={summary['disagree']} undecided={summary['undecided']}")
    assert len(records) == summary["rows"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true",
                        help="25 problems per k of every split instead of the defaults")
    args = parser.parse_args()
    logic_per_k = 25 if args.quick else logic_mt.SPEC.default_per_k
    ext_per_k = 25 if args.quick else gsme_mt_ext.SPEC.default_per_k
    gsme_per_k = 25 if args.quick else gsme_mt.SPEC.default_per_k
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        logic = logic_mt.build_split(0, logic_per_k, [1, 2, 3, 4])
        write(folder / "logic_q_mt.csv", MT_COLUMNS,
              [mt_row_from_record(r, sample_id=i) for i, r in enumerate(logic)])
        write(folder / "logic_q.csv", QUESTBENCH_COLUMNS,
              [questbench_row_from_record(r) for r in logic if r["k"] == 1])
        ext = gsme_mt_ext.build_split(0, ext_per_k, [1, 2, 3, 4])
        write(folder / "gsme_q_mt_ext.csv", EXT_COLUMNS,
              [released_row(r, i % 4, ext=True) for i, r in enumerate(ext)])
        gsme = gsme_mt.build_split(0, gsme_per_k, [1, 2, 3, 4])
        write(folder / "gsme_q_mt.csv", GSME_COLUMNS,
              [released_row(r, i % 4, ext=False) for i, r in enumerate(gsme)])
        measure("Logic-Q-MT (k=1..4)", folder / "logic_q_mt.csv", "mt-infoseek-logic", folder)
        measure("QuestBench Logic-Q (k=1)", folder / "logic_q.csv", "questbench-logic", folder)
        measure("GSME-Q-MT (k=1..4)", folder / "gsme_q_mt.csv", "mt-infoseek-gsme", folder)
        measure("GSME-Q-MT-Ext (k=1..4)", folder / "gsme_q_mt_ext.csv", "mt-infoseek-gsme-ext",
                folder)


if __name__ == "__main__":
    main()
