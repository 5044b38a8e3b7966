"""The coach: what the hard bot would do in a player's place, with its reason in words.

Contract: :meth:`Coach.hint` asks a search bot (:func:`~forest_shuffle.bots.make_bot`,
``mcts:time=...`` by default) for the decision of the player to move, from that player's
own :class:`~forest_shuffle.engine.view.PlayerView` only, and changes nothing in the game.
When the advice is a play that is paid for (or a payment), the bot also chooses the whole
payment, card by card, on a copy of the game (paying reveals nothing: the last payment
card, which would turn a deck card into the clearing, is chosen but never applied). The
reason comes from the search's root statistics when it searched: the points it expects to
stand ahead of the best rival and ahead of the next best move (its reward in [0, 1] is the
logistic of the point difference over the bot's ``scale``, :func:`~forest_shuffle.bots.
mcts.evaluate`), and from the payment: whether it keeps the card's bonus.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from forest_shuffle.bots import Bot, make_bot
from forest_shuffle.bots.mcts import MCTSBot
from forest_shuffle.engine.actions import PAY, PLAY, Action
from forest_shuffle.engine.setup import derive
from forest_shuffle.engine.state import GameState
from forest_shuffle.engine.view import PendingView
from forest_shuffle.text import cardtext
from forest_shuffle.text.narration import (
    action_words,
    bonus_alive,
    hint_words,
    species_of,
)

#: The bot a hint asks by default: the hard level's search with a little more time.
HINT_BOT = "mcts:time=2"
#: A reward this close to 0 or 1 is taken as that bound (the logistic has no inverse there).
EDGE = 1e-6


@dataclass(frozen=True, slots=True)
class Hint:
    """The coach's advice: the action, the cards it would pay with (the whole payment of
    the play, or of the payment at hand), and the advice in words."""

    action: Action
    payment: tuple[int, ...]
    words: str


def reward_points(reward: float, scale: float) -> float:
    """The point difference a search reward in [0, 1] stands for (the inverse of the
    logistic ``1 / (1 + exp(-diff / scale))``)."""
    r = min(1.0 - EDGE, max(EDGE, reward))
    return scale * math.log(r / (1.0 - r))


class Coach:
    """Hints for the seats of one game, from a bot specification and the game's seed."""

    def __init__(self, spec: str = HINT_BOT, seed: int = 0) -> None:
        make_bot(spec)  # a bad specification fails here (BotSpecError), not at a hint
        self.spec = spec
        self.seed = seed

    def _bot(self, state: GameState, player: int) -> Bot:
        """A fresh bot for this decision: the whole budget, the same advice for the same
        position."""
        return make_bot(self.spec, derive(self.seed, f"coach {player} {len(state.history)}"))

    def hint(self, state: GameState, player: int) -> Hint:
        """The advice for ``player``, whose decision it is (ValueError otherwise)."""
        if state.over or state.to_move != player:
            raise ValueError(f"player {player + 1} has no decision to make")
        view = state.view(player)
        bot = self._bot(state, player)
        action = bot.choose(view)
        stats = dict(bot.last_stats) if isinstance(bot, MCTSBot) else {}
        scale = bot.scale if isinstance(bot, MCTSBot) else 1.0
        payment = self._payment(state, player, action, bot)
        pend = view.pending
        text: str | None = action_words(action, view)
        bonus: str | None = None
        kept: bool | None = None
        paid_for: tuple[int, str] | None = None
        if action.kind == PAY and pend is not None:
            text = None
            paid_for = (pend.card, pend.side)
        elif action.kind == PLAY:
            paid_for = (action.card, action.side)
        if paid_for is not None:
            sp = species_of(*paid_for, view.game.catalog)
            if sp.bonus is not None:
                before = pend.paid if action.kind == PAY and pend is not None else ()
                whole = PendingView("pay", player, paid_for[0], paid_for[1],
                                    paid=(*before, *payment))
                bonus = cardtext.describe_effect(sp.bonus)
                kept = bonus_alive(whole)
        lead = margin = None
        runner: str | None = None
        samples = 0
        if len(view.legal_actions) > 1:
            samples = max(1, sum(v for v, _ in stats.values()))
        if len(stats) > 1 and action in stats:
            visits, total = stats[action]
            lead = reward_points(total / visits, scale)
            others = [(v, t / v, a) for a, (v, t) in stats.items() if a != action and v]
            if others:
                _, mean, second = max(others, key=lambda o: (o[0], o[1]))
                margin = lead - reward_points(mean, scale)
                runner = action_words(second, view)
        words = hint_words(text, payment, bonus, kept, lead, margin, runner, samples,
                           view.game.catalog)
        return Hint(action, payment, words)

    def _payment(self, state: GameState, player: int, action: Action,
                 bot: Bot) -> tuple[int, ...]:
        """The cards ``bot`` would pay with after ``action`` (chosen on a copy; the last
        one is never applied)."""
        pend = state.pending
        if action.kind == PAY:
            paying = state.clone()
        elif action.kind == PLAY:
            paying = state.clone()
            paying.apply(action)
        else:
            return ()
        card = pend.card if action.kind == PAY and pend is not None else action.card
        chosen: list[int] = []
        first = action if action.kind == PAY else None
        while not paying.over and paying.to_move == player:
            top = paying.pending
            if top is None or top.kind != "pay" or top.card != card:
                break
            view = paying.view(player)
            pay = first if first is not None else bot.choose(view)
            first = None
            chosen.append(pay.card)
            if top.need <= 1:
                break
            paying.apply(pay)
        return tuple(chosen)


__all__ = ["HINT_BOT", "Coach", "Hint", "reward_points"]
