"""Replays on the server: any finished game of this server and any record file, step by
step, from any seat's view or a spectator's (docs/web.md, "The coach, the review and
replays").

Contract (no HTTP here; every refusal is a :class:`~.errors.ServiceError` with one line):
:meth:`Replays.game_replay` (a finished game of this server; 409 before) and
:meth:`Replays.load_record` (a record file's text: 400 with one line unless it is a record
that replays as it says) give a :class:`Replay`; :meth:`Replay.frame` is the table at step
``k`` (after ``k`` actions) from one seat's view or a spectator's, computed by the engine
replaying the record, with the log in words as that viewer sees it. The last ``kept``
replays are kept; a record's text is looked up by its hash before anything is replayed, and
a frame starts from the state kept :data:`CHECKPOINT` actions before it at most.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from forest_shuffle.engine.actions import Action
from forest_shuffle.engine.check import JsonInputError, load_json
from forest_shuffle.engine.options import Rules
from forest_shuffle.engine.setup import LEGACY
from forest_shuffle.engine.state import GameState
from forest_shuffle.engine.view import make_spectator_view
from forest_shuffle.formats.records import RecordError, game_of, record_of, replay
from forest_shuffle.server.errors import ServiceError
from forest_shuffle.server.service import LiveGame, LogEntry, narrate
from forest_shuffle.server.service import opening_log as opening_lines

if TYPE_CHECKING:
    from forest_shuffle.server.service import GameService


#: The characters of a record's text the page may send (a record is about 10 KB).
MAX_RECORD_CHARS = 60_000


def state_of_record(record: dict[str, Any]) -> GameState:
    """The first state of a record (its seed, deal, seats, rules, first player, game)."""
    return GameState.new(record["players"], record["seed"], Rules.from_dict(record["rules"]),
                         record["first_player"], record.get("deal", LEGACY),
                         game=game_of(record))


#: Actions between two kept states of a replay (:attr:`Replay.checkpoints`).
CHECKPOINT = 16


class Replay:
    """A game to step through: its record replayed once by the engine for the log in
    words, keeping the state every :data:`CHECKPOINT` actions; a frame starts from the
    checkpoint before its step (before, each frame replayed from the deal)."""

    def __init__(self, record: dict[str, Any], names: Sequence[str], source: str,
                 ident: str) -> None:
        self.record = record
        self.names = list(names)
        self.source = source  # "game" (of this server) or "record" (a file)
        self.ident = ident
        self.actions = [Action.parse(t) for t in record["actions"]]
        state = state_of_record(record)
        self.game = state.game
        #: entries[0]: the opening lines; entries[k]: the lines of action k - 1.
        self.entries: list[list[LogEntry]] = [opening_lines(state, self.names)]
        #: The state after every :data:`CHECKPOINT`-th action (never changed: each step
        #: applies to a copy), so a frame replays at most that many actions.
        self.checkpoints: list[GameState] = [state]
        for k, action in enumerate(self.actions, 1):
            seat = state.to_move
            assert seat is not None
            after = state.clone()
            after.apply(action)
            self.entries.append(narrate(state, after, seat, action, self.names))
            state = after
            if k % CHECKPOINT == 0:
                self.checkpoints.append(state)

    @property
    def steps(self) -> int:
        return len(self.actions)

    def state_at(self, step: int) -> GameState:
        """The state after ``step`` actions: a copy of the checkpoint before it with the
        few actions after applied (at most :data:`CHECKPOINT` - 1)."""
        start = min(step // CHECKPOINT, len(self.checkpoints) - 1) * CHECKPOINT
        state = self.checkpoints[start // CHECKPOINT].clone()
        for action in self.actions[start:step]:
            state.apply(action)
        return state

    def meta(self) -> dict[str, Any]:
        key = "game_id" if self.source == "game" else "replay_id"
        return {"source": self.source, key: self.ident, "game": self.game.id,
                "game_title": self.game.title, "players": len(self.names),
                "names": self.names, "steps": self.steps}

    def frame(self, step: int, seat: int | None) -> dict[str, Any]:
        """The table after ``step`` actions as ``seat`` (None: a spectator) saw it, the log
        in that viewer's words, the move just made, the running score."""
        if not 0 <= step <= self.steps:
            raise ServiceError(400, f"step must be from 0 to {self.steps}, not {step}")
        if seat is not None and not 0 <= seat < len(self.names):
            raise ServiceError(400, f"seat must be from 0 to {len(self.names) - 1} "
                                    f"(or left out: a spectator), not {seat}")
        state = self.state_at(step)
        view = make_spectator_view(state) if seat is None else state.view(seat)
        viewer = -1 if seat is None else seat
        log = [e.shown(viewer) for k in range(step + 1) for e in self.entries[k]]
        move = [e.shown(viewer) for e in self.entries[step]] if step else []
        table = self.game.score_table(make_spectator_view(state).forests)
        out = self.meta()
        out.update({
            "step": step, "seat": seat, "view": view.to_dict(), "to_move": state.to_move,
            "decision": state.decision, "over": state.over, "turn": state.turn,
            "move": move, "log": log,
            "running": [{"seat": i, "total": sh.total, "lines": dict(sh.lines)}
                        for i, sh in enumerate(table)],
            # the text of the action just made, for its own seat only (it may name a card
            # the others did not see, such as a sapling's)
            "action": (str(self.actions[step - 1]) if step and seat is not None
                       and self._actor(step) == seat else None),
        })
        return out

    def _actor(self, step: int) -> int | None:
        for e in self.entries[step]:
            if e.seat is not None:
                return e.seat
        return None


class Replays:
    """The replays of one server (see the module contract): the last ``kept`` of them."""

    def __init__(self, svc: GameService, kept: int = 64) -> None:
        self.svc = svc
        self.kept = kept
        self._lock = threading.Lock()
        self._replays: OrderedDict[str, Replay] = OrderedDict()
        #: A record text's SHA-256 -> its replay id: a text sent again is not replayed.
        self._texts: OrderedDict[str, str] = OrderedDict()


    def _keep(self, key: str, make: Callable[[], Replay]) -> Replay:
        with self._lock:
            found = self._replays.get(key)
            if found is not None:
                self._replays.move_to_end(key)
                return found
        made = make()  # outside the lock: a few hundred milliseconds at most
        with self._lock:
            self._replays[key] = made
            while len(self._replays) > self.kept:
                self._replays.popitem(last=False)
        return made

    def game_replay(self, game_id: str) -> Replay:
        """The replay of a finished game of this server (409 while it is played)."""
        game = self.svc.game(game_id)
        if not game.snap.state.over:
            raise ServiceError(409, "a game is replayed once it is over")
        return self._keep("game " + game.id, lambda: _game_replay(game))

    def load_record(self, text: object) -> Replay:
        """The replay of a record file's text; 400 with one line unless it is a record
        that the engine replays to what it says."""
        if not isinstance(text, str) or not text.strip():
            raise ServiceError(400, "send the record file's text as 'text'")
        if len(text) > MAX_RECORD_CHARS:
            raise ServiceError(400, f"a record has at most {MAX_RECORD_CHARS} characters, "
                                    f"this one {len(text)}")
        # the same text loaded again: its replay is kept, nothing is replayed again
        digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
        with self._lock:
            rid = self._texts.get(digest)
            found = None if rid is None else self._replays.get("record " + rid)
            if found is not None:
                self._replays.move_to_end("record " + found.ident)
        if found is not None:
            return found
        try:
            data = load_json(text)
        except JsonInputError as exc:
            raise ServiceError(400, f"not a record: the file is {exc}") from None
        canon = json.dumps(data, sort_keys=True, separators=(",", ":")).encode()
        rid = hashlib.sha256(canon).hexdigest()[:16]
        with self._lock:  # the same record written otherwise: kept too
            found = self._replays.get("record " + rid)
            if found is not None:
                self._replays.move_to_end("record " + rid)
                self._remember_text(digest, rid)
        if found is not None:
            return found
        try:
            result = replay(data)
        except RecordError as exc:
            raise ServiceError(400, f"not a record: {_line(str(exc))}") from None
        if not result.ok:
            raise ServiceError(400, f"the record does not replay: {_line(result.message)}")
        names = [f"Player {i + 1}" for i in range(data["players"])]
        made = self._keep("record " + rid, lambda: Replay(data, names, "record", rid))
        with self._lock:
            self._remember_text(digest, rid)
        return made

    def _remember_text(self, digest: str, rid: str) -> None:
        """Which replay a record's text (its SHA-256) loads (with the lock held)."""
        self._texts[digest] = rid
        self._texts.move_to_end(digest)
        while len(self._texts) > 4 * self.kept:
            self._texts.popitem(last=False)

    def record_replay(self, replay_id: str) -> Replay:
        """A record loaded before (404 once it is forgotten: send it again)."""
        with self._lock:
            found = self._replays.get("record " + replay_id)
        if found is None:
            raise ServiceError(404, "no such replay (records are kept a while only): "
                                    "load the record file again")
        return found


def _game_replay(game: LiveGame) -> Replay:
    return Replay(record_of(game.snap.state), [s.name for s in game.seats], "game", game.id)


def _line(text: str) -> str:
    one = " ".join(text.split())
    return one if len(one) <= 300 else one[:297] + "..."


__all__ = ["CHECKPOINT", "MAX_RECORD_CHARS", "Replay", "Replays", "state_of_record"]
