"""Tournament journals: every finished game of a tournament written down as it ends, so a
long run can stop (or be stopped) and go on later from where it was.

Contract: a journal is a text file of JSON lines. The first line is the header
``{"journal": JOURNAL_FORMAT, "game": ..., "bots": [...], "players": N, "seed": S}``; every
further line is ``{"index": I, "match": MatchResult.to_dict()}`` for game ``I`` of the
tournament (deal-major, then seating). :func:`open_journal` creates the file with its header
when it does not exist (or is empty) and otherwise reads it back, checking that the header
is the same tournament's; it returns the games already played. A game is appended and
flushed by :meth:`Journal.write` the moment it ends. A last line cut short (the run was
killed while writing it) is ignored and overwritten; anything else malformed, or another
tournament's header, raises :class:`JournalError` with a one-line message, and the file is
left as it was. The number of games may grow between runs (the games of a deal keep their
indexes), so a run of 100 games can later be extended to 200. :func:`read_journal` reads
one back without touching it (to compare two runs of the same deals).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from forest_shuffle.match import MatchResult

__all__ = ["JOURNAL_FORMAT", "Journal", "JournalError", "open_journal", "read_journal"]

JOURNAL_FORMAT = "forest-shuffle tournament journal 1"


class JournalError(ValueError):
    """A journal that cannot be read, is malformed or belongs to another tournament."""


@dataclass
class Journal:
    """An open journal: :meth:`write` appends one finished game; :meth:`close` when done."""

    path: Path
    file: IO[str]

    def write(self, index: int, result: MatchResult) -> None:
        """Append game ``index`` and flush it to disk."""
        self.file.write(json.dumps({"index": index, "match": result.to_dict()},
                                   separators=(",", ":")) + "\n")
        self.file.flush()
        os.fsync(self.file.fileno())

    def close(self) -> None:
        """Close the file."""
        self.file.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _header(game: str, bots: tuple[str, ...], players: int, seed: int) -> dict[str, Any]:
    return {"journal": JOURNAL_FORMAT, "game": game, "bots": list(bots), "players": players,
            "seed": seed}


def _parse(path: Path, want: dict[str, Any] | None = None
           ) -> tuple[str, dict[str, Any] | None, dict[int, MatchResult], int]:
    """The text of the journal at ``path`` (empty if none), its header (None when empty),
    its games, and how many characters of the text to keep (a killed run's cut-short last
    line dropped). JournalError (one line) for anything else malformed, or for a header
    other than ``want`` when given (checked before the games are read)."""
    try:
        text = path.read_text(encoding="utf-8") if path.exists() else ""
    except (OSError, UnicodeDecodeError) as exc:
        raise JournalError(f"cannot read the journal {path}: {exc}") from None
    done: dict[int, MatchResult] = {}
    keep = len(text)
    if not text.strip():
        return text, None, done, keep
    lines = text.split("\n")
    try:
        head = json.loads(lines[0])
    except json.JSONDecodeError:
        raise JournalError(f"{path}: line 1 is not a journal header") from None
    if not isinstance(head, dict) or head.get("journal") != JOURNAL_FORMAT:
        raise JournalError(f"{path} is not a tournament journal ({JOURNAL_FORMAT!r})")
    if want is not None and head != want:
        diff = next(k for k in want if head.get(k) != want[k])
        raise JournalError(f"{path} is the journal of another tournament: its {diff} is "
                           f"{head.get(diff)!r}, this one's {want[diff]!r}")
    offset = len(lines[0]) + 1
    for number, line in enumerate(lines[1:], start=2):
        cut = number == len(lines) and not text.endswith("\n")  # a killed run's last
        if not line:
            offset += 1
            continue
        try:
            entry = json.loads(line)
            index = entry["index"]
            if not isinstance(index, int) or isinstance(index, bool) or index < 0:
                raise ValueError("a bad game index")
            result = MatchResult.from_dict(entry["match"])
        except (json.JSONDecodeError, KeyError, TypeError, ValueError) as exc:
            if cut:
                keep = offset  # dropped, and played again
                break
            reason = exc.msg if isinstance(exc, json.JSONDecodeError) else exc
            raise JournalError(f"{path}: line {number} is not a game: {reason}") from None
        if index in done:
            raise JournalError(f"{path}: line {number} repeats game {index + 1}")
        done[index] = result
        offset += len(line) + 1
    return text, head, done, keep


def read_journal(path: Path) -> tuple[dict[str, Any], dict[int, MatchResult]]:
    """Read a journal without changing it: its header and its games by index.
    JournalError (one line) for a missing, empty or malformed file."""
    if not path.is_file():
        raise JournalError(f"no journal at {path}")
    _, head, done, _ = _parse(path)
    if head is None:
        raise JournalError(f"{path} is empty")
    return head, done


def open_journal(path: Path, game: str, bots: tuple[str, ...], players: int,
                 seed: int) -> tuple[Journal, dict[int, MatchResult]]:
    """Open (or create) the journal of this tournament; returns it and the games it holds.
    Raises :class:`JournalError` (one line; nothing written) for a bad file."""
    want = _header(game, bots, players, seed)
    text, head, done, keep = _parse(path, want)
    try:
        if head is None:
            path.write_text(json.dumps(want) + "\n", encoding="utf-8")
        elif keep < len(text):
            with path.open("r+", encoding="utf-8") as f:
                f.truncate(len(text[:keep].encode("utf-8")))
        elif not text.endswith("\n"):
            with path.open("a", encoding="utf-8") as f:
                f.write("\n")
        file = path.open("a", encoding="utf-8")
    except OSError as exc:
        raise JournalError(f"cannot write the journal {path}: {exc}") from None
    return Journal(path, file), done
