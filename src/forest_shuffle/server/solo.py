"""Dartmoor's solo mode in the browser: the challenges offered, the solo part of a payload
and Anna's turns in the log (docs/web.md, "Solo").

Contract:

- :func:`challenges` is ``GET /api/solo``: Anna's name, the medals (lowest first) and per
  challenge its number, game id, title, medal thresholds and the challenge in words, all
  from ``cards/data/dartmoor/solo.json`` (through :mod:`forest_shuffle.games.dartmoor_solo`).
- :func:`solo_settings` checks a creation's challenge and medal (ServiceError 400, one
  line) and gives the game id and the settings a solo game is stored with.
- :func:`solo_part` is the payload's ``solo`` (None for any other game): the challenge, the
  medal played for, Anna's status and last turn in words, the goal's progress, and at the
  end the result in words. Public facts only (the view's ``solo``, the public forest).
- :func:`before_anna`, :func:`anna_lines` and :func:`end_lines` let the log tell the
  player's action, then Anna's turn, in order (the engine plays her turn inside the
  player's last action of a turn). The words, and the rule that rebuilds the table before
  her turn (which the terminal reads too), are :mod:`forest_shuffle.text.narration`'s.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from forest_shuffle.engine.state import GameState
from forest_shuffle.engine.view import PlayerView
from forest_shuffle.games.dartmoor_solo import (
    MEDALS,
    DartmoorSoloState,
    challenge_of,
    result_of,
    solo_data,
    solo_id,
)
from forest_shuffle.server.errors import ServiceError
from forest_shuffle.text import narration
from forest_shuffle.text.narration import (
    GAME_OVER,
    BeforeAnna,
    anna_status_words,
    anna_words,
    automa_name,
    challenge_words,
    solo_result_words,
)

#: The settings key of a solo game: ``{"medal": str}`` ("" when none is played for).
SETTING = "solo"


def _error(message: str) -> Exception:
    return ServiceError(400, message)


def challenges() -> dict[str, Any]:
    """``GET /api/solo``: ``{"automa", "medals", "challenges": [{"number", "id", "title",
    "thresholds", "words"}], "provisional"}`` from the solo data."""
    data = solo_data()
    return {
        "automa": data.automa_name,
        "medals": list(MEDALS),
        "challenges": [{"number": c.number, "id": solo_id(c.number), "title": c.title,
                        "thresholds": dict(c.thresholds),
                        "words": challenge_words(c.number, c.title, c.thresholds)}
                       for c in data.challenges],
        "provisional": dict(data.provisional),
    }


def solo_settings(challenge: object, medal: object) -> tuple[str, dict[str, Any]]:
    """The game id and the extra settings of a new solo game of ``challenge`` (a whole
    number) played for ``medal`` (a medal's name, or None/"" for none); ServiceError(400)
    with one line for anything else."""
    count = len(solo_data().challenges)
    if isinstance(challenge, bool) or not isinstance(challenge, int):
        raise _error(f"challenge must be a whole number from 1 to {count}")
    try:
        number = challenge_of(challenge).number
    except ValueError as exc:
        raise _error(str(exc)) from None
    if medal is None:
        medal = ""
    if not isinstance(medal, str) or medal not in ("", *MEDALS):
        shown = medal if isinstance(medal, str) and len(medal) <= 20 else "that"
        raise _error(f"medal must be one of {', '.join(MEDALS)} (or none), not {shown!r}")
    return solo_id(number), {SETTING: {"medal": medal}}


def solo_part(state: GameState, view: PlayerView,
              settings: Mapping[str, Any]) -> dict[str, Any] | None:
    """The payload's ``solo`` for ``view`` of ``state`` (None if it is no solo game)."""
    if not isinstance(state, DartmoorSoloState) or not view.solo:
        return None
    solo = view.solo
    ch = challenge_of(int(solo["challenge"]))
    chosen = settings.get(SETTING)
    medal = str(chosen.get("medal", "")) if isinstance(chosen, Mapping) else ""
    medal = medal if medal in MEDALS else ""
    name = automa_name(state.game.options)
    last = solo["anna_last"]
    result = result_of(state.game, view.forests[0], ch.number)  # the public forest
    words = solo_result_words(result, medal)
    out: dict[str, Any] = {
        "challenge": ch.number, "title": ch.title, "thresholds": dict(ch.thresholds),
        "medal": medal, "words": challenge_words(ch.number, ch.title, ch.thresholds, medal),
        "automa": name, "automa_left": int(solo["automa_left"]),
        "anna_turns": int(solo["anna_turns"]), "cycles": int(solo["cycles"]),
        "status": anna_status_words(solo, name),
        "last": None if last is None else anna_words(last, state.game.catalog, name),
        "progress": {"have": result.have, "need": result.need, "met": result.goal_met,
                     "words": words[0]},
        "result": None,
    }
    if state.over:
        out["result"] = {"have": result.have, "need": result.need,
                         "goal_met": result.goal_met, "score": result.score,
                         "medal": result.medal,
                         "won": None if not medal else result.reached(medal),
                         "words": words}
    return out


# ------------------------------------------------------------------------ the log


def _anna_last(before: GameState, after: GameState) -> dict[str, Any] | None:
    """Anna's turn inside the action from ``before`` to ``after`` (a view's
    ``solo["anna_last"]``), or None when she took none."""
    if (isinstance(after, DartmoorSoloState) and isinstance(before, DartmoorSoloState)
            and after.anna_turns > before.anna_turns and after.anna_last is not None):
        return after.anna_last.to_dict()
    return None


def before_anna(before: GameState, after: GameState) -> GameState | BeforeAnna:
    """The table as the player's part of the action left it, before Anna's turn (``after``
    itself when she did not play): :func:`forest_shuffle.text.narration.before_anna`."""
    last = _anna_last(before, after)
    if last is None:
        return after
    assert isinstance(before, DartmoorSoloState) and isinstance(after, DartmoorSoloState)
    return narration.before_anna(before, after, last)


def anna_lines(before: GameState, after: GameState) -> list[str]:
    """Anna's turn in words (her line, then the winter card she revealed), or nothing:
    :func:`forest_shuffle.text.narration.anna_lines`."""
    last = _anna_last(before, after)
    if last is None:
        return []
    return narration.anna_lines(before, after, last, after.game.catalog,
                                automa_name(after.game.options), after.game.winter_to_end)


def end_lines(state: GameState) -> list[str] | None:
    """The end of a solo game in words (over, goal, score, medal), None for other games."""
    if not isinstance(state, DartmoorSoloState):
        return None
    result = result_of(state.game, state.forests[0], state.challenge)
    return [GAME_OVER, *solo_result_words(result)]


def opening_lines(state: GameState) -> Sequence[str]:
    """The challenge in words, first in a solo game's log (nothing for other games)."""
    if not isinstance(state, DartmoorSoloState):
        return ()
    ch = challenge_of(state.challenge)
    return (challenge_words(ch.number, ch.title, ch.thresholds),)
