"""The coach: what the hard bot would do in a player's place, and by how much it prefers it.

Contract (one copy for every face: the terminal's ``hint``, the server's suggestion and
its after-game review):

- :func:`advise` asks a search bot (:func:`~forest_shuffle.bots.make_bot`) for the decision
  of ``view``'s player from that :class:`~forest_shuffle.engine.view.PlayerView` only (never
  a full state), and returns an :class:`Advice`. When the advice is a play that is paid for
  (or a payment), the bot also chooses the whole payment card by card, on a state sampled
  to agree with the view (:mod:`~forest_shuffle.bots.determinize`: paying reveals nothing,
  and the last payment card is chosen but never applied), so the sampled hidden cards
  cannot change the advice. Nothing of the game is changed.
- The reason comes from the search's root statistics (when it searched): the points it
  expects the move to leave the player ahead of the best rival (its reward in [0, 1] is the
  logistic of that point difference over the bot's ``scale``, :func:`~forest_shuffle.bots.
  mcts.evaluate`; :func:`reward_points` inverts it) and ahead of the next best move.
- :func:`compare` weighs a move that was played against the bot's own choice from the same
  view: the bot chooses, and when it differs, the two moves race each other alone
  (:func:`~forest_shuffle.bots.mcts.race` on a view whose legal actions are just those two)
  so both get an expected point figure from the same sampled cards.

- In a solo challenge (:func:`~forest_shuffle.bots.solo.goal_of`) a plain search bot
  gives way to the solo player (:class:`~forest_shuffle.bots.solo.SoloBot`) with the same
  seed and budget, so Suggest, ``hint`` and the review play for the challenge's goal and
  medal; its figures are no points against a rival, so ``lead``, ``margin`` and the
  comparison's points are left out (None).

Words are not made here (bots need none): :mod:`forest_shuffle.text.advice` puts an
:class:`Advice` into words.
"""

from __future__ import annotations

import dataclasses
import math
import random
import time
from collections.abc import Mapping
from dataclasses import dataclass

from forest_shuffle.bots.base import Bot
from forest_shuffle.bots.determinize import determinize
from forest_shuffle.bots.mcts import MCTSBot, race
from forest_shuffle.bots.registry import make_bot
from forest_shuffle.bots.solo import SoloBot, goal_of
from forest_shuffle.engine.actions import PAY, PLAY, Action
from forest_shuffle.engine.view import PlayerView

#: The bot a hint asks by default: the hard level's search with a little more time.
HINT_BOT = "mcts:time=2"
#: A reward this close to 0 or 1 is taken as that bound (the logistic has no inverse there).
EDGE = 1e-6


@dataclass(frozen=True, slots=True)
class Advice:
    """The coach's advice for one decision.

    ``action`` is the move; ``payment`` the cards it would pay with (the whole payment of a
    play, or the rest of the payment at hand, in the order chosen); ``paid_for`` the card
    and side that payment is for (None: no payment); ``lead`` the points the search expects
    the move to leave the player ahead of the best rival (negative: behind; None: it did
    not compare moves); ``margin`` the points over ``runner_up``, the next best move;
    ``samples`` the sampled playouts behind it (0: the only legal choice)."""

    action: Action
    payment: tuple[int, ...] = ()
    paid_for: tuple[int, str] | None = None
    lead: float | None = None
    margin: float | None = None
    runner_up: Action | None = None
    samples: int = 0


@dataclass(frozen=True, slots=True)
class Comparison:
    """A move played against the bot's choice from the same view: ``chosen`` is the bot's
    move; when it differs from ``played``, ``played_points`` and ``chosen_points`` are the
    points each was expected to leave the player ahead of the best rival (from one race of
    the two), ``gain`` the difference (None: too few samples to tell them apart)."""

    played: Action
    chosen: Action
    played_points: float | None = None
    chosen_points: float | None = None

    @property
    def same(self) -> bool:
        return self.played == self.chosen

    @property
    def gain(self) -> float | None:
        if self.played_points is None or self.chosen_points is None:
            return None
        return self.chosen_points - self.played_points


def reward_points(reward: float, scale: float) -> float:
    """The point difference a search reward in [0, 1] stands for (the inverse of the
    logistic ``1 / (1 + exp(-diff / scale))``)."""
    r = min(1.0 - EDGE, max(EDGE, reward))
    return scale * math.log(r / (1.0 - r))


def _payment(view: PlayerView, action: Action, bot: Bot, seed: int) -> tuple[int, ...]:
    """The cards ``bot`` would pay with after ``action``, chosen on a state sampled to agree
    with ``view`` (every choice is made from the view the sample gives the player, which is
    the real one: own hand, public table, the decision; the last card is never applied)."""
    pend = view.pending
    if action.kind not in (PAY, PLAY) or pend is None:
        return ()
    if action.kind == PAY and pend.kind != "pay":
        return ()
    player = view.player
    paying = determinize(view, random.Random(seed))
    if action.kind == PLAY:
        paying.apply(action)
    card = pend.card if action.kind == PAY else action.card
    chosen: list[int] = []
    first: Action | None = action if action.kind == PAY else None
    while not paying.over and paying.to_move == player:
        top = paying.pending
        if top is None or top.kind != "pay" or top.card != card:
            break
        pay = first if first is not None else bot.choose(paying.view(player))
        first = None
        chosen.append(pay.card)
        if top.need <= 1:
            break
        paying.apply(pay)
    return tuple(chosen)


def for_view(bot: Bot, view: PlayerView) -> Bot:
    """``bot``, or in a solo challenge, for a plain search bot, the solo player with its
    seed and budget (see the module contract)."""
    if type(bot) is MCTSBot and goal_of(view.game) is not None:
        return SoloBot(bot.seed, time=bot.time, iterations=bot.iterations)
    return bot


def advise(view: PlayerView, bot: Bot, seed: int = 0) -> Advice:
    """The advice of ``bot`` (a fresh one: the whole budget; :func:`coach_bot`; in a solo
    challenge :func:`for_view`) for ``view``'s player, whose decision it must be
    (ValueError otherwise); ``seed`` samples the hidden cards the payment is chosen on (the
    same advice for the same view)."""
    if view.over or not view.legal_actions:
        raise ValueError(f"player {view.player + 1} has no decision to make")
    bot = for_view(bot, view)
    action = bot.choose(view)
    searched = dict(bot.last_stats) if isinstance(bot, MCTSBot) else {}
    # The solo player's figures are a medal utility, no points against a rival.
    stats = {} if isinstance(bot, SoloBot) else searched
    scale = bot.scale if isinstance(bot, MCTSBot) else 1.0
    payment = _payment(view, action, bot, seed)
    pend = view.pending
    paid_for: tuple[int, str] | None = None
    if action.kind == PAY and pend is not None:
        paid_for = (pend.card, pend.side)
    elif action.kind == PLAY and payment:
        paid_for = (action.card, action.side)
    lead = margin = None
    runner: Action | None = None
    samples = 0
    if len(view.legal_actions) > 1:
        samples = max(1, sum(v for v, _ in searched.values()))
    if len(stats) > 1 and action in stats:
        visits, total = stats[action]
        lead = reward_points(total / visits, scale)
        others = [(v, t / v, a) for a, (v, t) in stats.items() if a != action and v]
        if others:
            _, mean, runner = max(others, key=lambda o: (o[0], o[1]))
            margin = lead - reward_points(mean, scale)
    return Advice(action, payment, paid_for, lead, margin, runner, samples)


def coach_bot(spec: str, seed: int) -> Bot:
    """A fresh bot of ``spec`` for one piece of advice (BotSpecError for a bad spec)."""
    return make_bot(spec, seed)


def _points(stats: Mapping[Action, tuple[int, float]], action: Action,
            scale: float) -> float | None:
    visits, total = stats.get(action, (0, 0.0))
    return reward_points(total / visits, scale) if visits else None


def compare(view: PlayerView, played: Action, bot: Bot, seed: int = 0) -> Comparison:
    """The choice of ``bot`` (a fresh one) from ``view`` against ``played`` (a legal action
    of it); when they differ, one race of the two alone (seeded ``seed``), with the bot's
    time or iteration budget, gives each its expected points (see the module contract).
    ValueError if ``played`` is not legal there."""
    if played not in view.legal_actions:
        raise ValueError(f"{played} is not a legal action of player {view.player + 1}")
    bot = for_view(bot, view)
    chosen = bot.choose(view)
    if chosen == played or not isinstance(bot, MCTSBot) or isinstance(bot, SoloBot):
        return Comparison(played, chosen)
    pair = dataclasses.replace(view, legal_actions=(chosen, played))
    deadline = None if bot.iterations else time.monotonic() + bot.time
    stats = race(pair, deadline, bot.iterations, seed, bot.depth, 6, bot.hv, bot.z,
                 bot.end, bot.scale, 0, 0, 0.0, 0)
    return Comparison(played, chosen, _points(stats, played, bot.scale),
                      _points(stats, chosen, bot.scale))


__all__ = ["HINT_BOT", "Advice", "Comparison", "advise", "coach_bot", "compare", "for_view",
           "reward_points"]
