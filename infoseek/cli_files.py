"""The checks the `infoseek` command runs on the files it will write, before any work:
an output that exists and is not a regular file (a device, a FIFO, a socket) is refused
even with ``--force``; an existing file is kept unless ``--force``; ``verify
--write-corrected`` never writes over its input file (by resolved path or
`os.path.samefile`, so not through a symlink or hard link either) nor over its own
result files.
"""

from __future__ import annotations

import argparse
import os
import stat
from collections.abc import Sequence
from pathlib import Path


def output_problem(out: str, force: bool, *, option: str = "--out",
                   inputs: Sequence[str] = ()) -> str | None:
    """Why the file `out` cannot be written, or None: it exists and is not a regular file
    (a device, FIFO or socket: never replaced, even with `force`), it exists (without
    `force`), it is one of `inputs` (the command's own input files: never written over,
    also not through a symlink or another path to it), it is a folder, or its folder is
    missing or not writable. Checked before any work is done."""
    path = Path(out)
    folder = path.parent if str(path.parent) else Path(".")
    if path.is_dir():
        return f"{out} is a folder; {option} names the JSONL file to write"
    kind = _special_kind(path)
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


def _special_kind(path: Path) -> str | None:
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


VERIFY_FILES = ("disagreements.jsonl", "summary.json")
"""The files `infoseek verify` writes into its --out folder."""


def verify_output_problem(args: argparse.Namespace) -> str | None:
    """Why `verify` cannot write its outputs, or None. The --out folder must be a folder
    (or not exist yet) whose result files are regular files (or absent);
    ``--write-corrected OUT`` follows `output_problem`: never a device or FIFO, never
    the input file nor a result file, an existing file only with --force."""
    inputs = [args.path] if not _is_url(args.path) else []
    if args.out is not None:
        folder = Path(args.out)
        if folder.exists() and not folder.is_dir():
            return f"--out {args.out} is not a folder; --out names the folder of results"
        for name in VERIFY_FILES:
            kind = _special_kind(folder / name)
            if kind is not None:
                return (f"{folder / name} is {kind}, not a regular file; choose another "
                        "--out folder")
        inputs += [str(folder / name) for name in VERIFY_FILES]
    if args.write_corrected is None:
        return None
    return output_problem(args.write_corrected, args.force, option="--write-corrected",
                          inputs=inputs)


def _is_url(text: str) -> bool:
    return "://" in text
