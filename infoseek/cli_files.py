"""The checks the `infoseek` command runs on the files it will write, before any work:
an output that exists and is not a regular file (a device, a FIFO, a socket) is refused
even with ``--force``; an existing file is kept unless ``--force``; ``verify
--write-corrected`` never writes over its input file (by resolved path or
`os.path.samefile`, so not through a symlink or hard link either) nor over its own
result files; a folder to write (``report --out``, ``sweep --log-dir``, ``verify --out``)
must be named (not empty), be a folder or not exist yet under a writable folder (never a
file or a device, nor under one), and an earlier run's results in it are kept unless
``--force``.
"""

from __future__ import annotations

import argparse
import os
import stat
from collections.abc import Sequence
from pathlib import Path


def output_problem(out: str, force: bool, *, option: str = "--out",
                   inputs: Sequence[str] = ()) -> str | None:
    """Why the file `out` cannot be written, or None: it is empty text, it exists and is
    not a regular file (a device, FIFO or socket: never replaced, even with `force`), it
    exists (without `force`), it is one of `inputs` (the command's own input files: never
    written over, also not through a symlink or another path to it), it is a folder, or
    its folder is missing or not writable. Checked before any work is done."""
    if not str(out).strip():
        return f"{option} is empty; name the file to write"
    path = Path(out)
    folder = path.parent if str(path.parent) else Path(".")
    if path.is_dir():
        return f"{out} is a folder; {option} names the JSONL file to write"
    kind = special_kind(path)
    if kind is not None:
        return (f"{out} is {kind}, not a regular file; {option} names a file to write "
                "(refused even with --force)")
    same = [given for given in inputs if _same_file(path, given)]
    if same:
        return f"{out} is the input file {same[0]}; write the result to another file"
    if path.exists() and not force:
        return f"{out} exists; pass --force to overwrite it"
    if not folder.is_dir():
        return f"cannot write {out}: folder {folder} does not exist"
    if not os.access(folder, os.W_OK | os.X_OK) or (path.exists()
                                                     and not os.access(path, os.W_OK)):
        return f"cannot write {out}: permission denied"
    return None


def special_kind(path: Path) -> str | None:
    """What an existing `path` is when it is not a regular file (following symlinks), or
    None (a regular file, or nothing there)."""
    try:
        mode = path.stat().st_mode
    except OSError:
        return None
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
        return None
    for test, kind in ((stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISFIFO, "a FIFO"), (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return kind
    return "not a regular file"


def _same_file(path: Path, other: str) -> bool:
    """Whether `path` and `other` name one file (resolved paths, or `os.path.samefile`
    for hard links and symlinks)."""
    try:
        if path.resolve() == Path(other).resolve():
            return True
        return path.exists() and Path(other).exists() and os.path.samefile(path, other)
    except (OSError, ValueError):
        return False


def folder_problem(folder: str, option: str = "--out") -> str | None:
    """Why the folder `folder` cannot be written into (created when missing), or None:
    it is empty text (which would mean the working folder), it exists and is not a
    folder (a file, a device, a FIFO), the nearest part of it that exists is not a
    folder (a path under a file or a device), or that part is not writable."""
    if not str(folder).strip():
        return f"{option} is empty; name the folder to write"
    path = Path(folder)
    if path.exists() or path.is_symlink():
        if not path.is_dir():
            kind = special_kind(path) or "a file"
            return f"{option} {folder} is {kind}, not a folder; {option} names a folder"
        if not os.access(path, os.W_OK | os.X_OK):
            return f"{option} {folder}: permission denied"
        return None
    above = path.parent
    while not (above.exists() or above.is_symlink()) and above != above.parent:
        above = above.parent
    if not above.is_dir():
        kind = special_kind(above) or "a file"
        return f"{option} {folder} is under {above}, which is {kind}, not a folder"
    if not os.access(above, os.W_OK | os.X_OK):
        return f"{option} {folder}: cannot create it in {above} (permission denied)"
    return None


def earlier_results(folder: str | Path, names: Sequence[str]) -> list[str]:
    """Which of `names` (a command's result files or folders) `folder` already holds."""
    path = Path(folder)
    if not path.is_dir():
        return []
    return [name for name in names if (path / name).exists() or (path / name).is_symlink()]


def shown_names(names: Sequence[str], at_most: int = 2) -> str:
    """`names` for a message: the first `at_most`, then ``...`` when there are more."""
    return ", ".join(names[:at_most]) + (", ..." if len(names) > at_most else "")


VERIFY_FILES = ("disagreements.jsonl", "summary.json")
"""The files `infoseek verify` writes into its --out folder."""


def verify_results_problem(out: str | Path, force: bool) -> str | None:
    """Why `verify` may not write its results into `out`: it holds an earlier run's
    (without `force`); None otherwise."""
    found = earlier_results(out, VERIFY_FILES)
    if found and not force:
        return (f"--out {out} holds the results of an earlier run ({shown_names(found)}); "
                "pass --force to overwrite them")
    return None


def verify_output_problem(args: argparse.Namespace) -> str | None:
    """Why `verify` cannot write its outputs, or None. The --out folder must be a folder
    (or not exist yet) whose result files are regular files (or absent), and results of
    an earlier run there are kept unless --force; ``--write-corrected OUT`` follows
    `output_problem`: never a device or FIFO, never the input file nor a result file, an
    existing file only with --force."""
    inputs = [args.path] if not _is_url(args.path) else []
    if args.out is not None:
        folder = Path(args.out)
        if folder.exists() and not folder.is_dir():
            return f"--out {args.out} is not a folder; --out names the folder of results"
        for name in VERIFY_FILES:
            kind = special_kind(folder / name)
            if kind is not None:
                return (f"{folder / name} is {kind}, not a regular file; choose another "
                        "--out folder")
        problem = folder_problem(args.out) or verify_results_problem(args.out, args.force)
        if problem is not None:
            return problem
        inputs += [str(folder / name) for name in VERIFY_FILES]
    if args.write_corrected is None:
        return None
    return output_problem(args.write_corrected, args.force, option="--write-corrected",
                          inputs=inputs)


def _is_url(text: str) -> bool:
    return "://" in text
