"""The terminal's coach: ``hint``, what the hard bot would do in a player's place.

Contract: :meth:`Coach.hint` asks :func:`forest_shuffle.bots.coach.advise` (the one copy of
the advice, shared with the web server's Suggest button) with a fresh search bot
(``mcts:time=...`` by default) for the decision of the player to move, from that player's
own :class:`~forest_shuffle.engine.view.PlayerView` only, and puts it into words with
:func:`forest_shuffle.text.advice.advice_facts`. It changes nothing in the game.
"""

from __future__ import annotations

from dataclasses import dataclass

from forest_shuffle.bots import make_bot
from forest_shuffle.bots.coach import HINT_BOT, advise, reward_points
from forest_shuffle.engine.actions import Action
from forest_shuffle.engine.setup import derive
from forest_shuffle.engine.state import GameState
from forest_shuffle.text.advice import advice_facts


@dataclass(frozen=True, slots=True)
class Hint:
    """The coach's advice: the action, the cards it would pay with (the whole payment of
    the play, or of the payment at hand), and the advice in words."""

    action: Action
    payment: tuple[int, ...]
    words: str


class Coach:
    """Hints for the seats of one game, from a bot specification and the game's seed."""

    def __init__(self, spec: str = HINT_BOT, seed: int = 0) -> None:
        make_bot(spec)  # a bad specification fails here (BotSpecError), not at a hint
        self.spec = spec
        self.seed = seed

    def hint(self, state: GameState, player: int) -> Hint:
        """The advice for ``player``, whose decision it is (ValueError otherwise); only
        ``player``'s view of ``state`` is read."""
        if state.over or state.to_move != player:
            raise ValueError(f"player {player + 1} has no decision to make")
        view = state.view(player)
        seed = derive(self.seed, f"coach {player} {len(state.history)}")
        advice = advise(view, make_bot(self.spec, seed), seed)
        facts = advice_facts(advice, view)
        return Hint(advice.action, advice.payment, facts.words)


__all__ = ["HINT_BOT", "Coach", "Hint", "reward_points"]
