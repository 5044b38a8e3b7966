"""The coach's advice in words, the one copy for the terminal's ``hint`` and the page's
Suggest button.

Contract: :func:`advice_facts` reads an advice of :mod:`forest_shuffle.bots.coach` (any
object with its fields, :class:`AdviceLike`; ``text`` imports no bot) against the view it
was given for: the action in words, the bonus at stake in its payment (its words, whether
the chosen cards keep it) and the whole sentence of :func:`~forest_shuffle.text.narration.
hint_words` ("Hint: play ..., paying with ... That keeps the bonus (...). The search ...
expects it to leave you about 4 points ahead of the best rival ...").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from forest_shuffle.engine.actions import PAY, Action
from forest_shuffle.engine.view import PendingView, PlayerView
from forest_shuffle.text import cardtext
from forest_shuffle.text.narration import action_words, bonus_alive, hint_words, species_of


class AdviceLike(Protocol):
    """The fields of :class:`forest_shuffle.bots.coach.Advice` read here."""

    @property
    def action(self) -> Action: ...
    @property
    def payment(self) -> tuple[int, ...]: ...
    @property
    def paid_for(self) -> tuple[int, str] | None: ...
    @property
    def lead(self) -> float | None: ...
    @property
    def margin(self) -> float | None: ...
    @property
    def runner_up(self) -> Action | None: ...
    @property
    def samples(self) -> int: ...


@dataclass(frozen=True, slots=True)
class AdviceFacts:
    """An advice for people: ``action`` the move in words (None when it is the payment at
    hand), ``bonus`` the words of the bonus its payment is for (None: no bonus at stake),
    ``bonus_kept`` whether the payment keeps it (None: no payment), ``runner_up`` the next
    best move in words, ``words`` the whole sentence."""

    action: str | None
    bonus: str | None
    bonus_kept: bool | None
    runner_up: str | None
    words: str


def advice_facts(advice: AdviceLike, view: PlayerView) -> AdviceFacts:
    """The facts and words of ``advice``, given for ``view``'s player."""
    pend = view.pending
    cat = view.game.catalog
    action = advice.action
    text: str | None = None if action.kind == PAY else action_words(action, view)
    bonus: str | None = None
    kept: bool | None = None
    if advice.paid_for is not None:
        card, side = advice.paid_for
        sp = species_of(card, side, cat)
        if sp.bonus is not None:
            before = pend.paid if action.kind == PAY and pend is not None else ()
            whole = PendingView("pay", view.player, card, side,
                                paid=(*before, *advice.payment))
            bonus = cardtext.describe_effect(sp.bonus)
            kept = bonus_alive(whole, cat)
    runner = None if advice.runner_up is None else action_words(advice.runner_up, view)
    words = hint_words(text, advice.payment, bonus, kept, advice.lead, advice.margin, runner,
                       advice.samples, cat)
    return AdviceFacts(text, bonus, kept, runner, words)


__all__ = ["AdviceFacts", "AdviceLike", "advice_facts"]
