"""The base family's decision kinds, each declared once (``engine/kinds.py: KindDecl``).

Contract: importing this module registers every kind of decision the base game and its
expansions ask (``mulligan``, ``turn``, ``draw``, ``pay``, ``option``, ``free``, ``raccoon``,
``mole``, ``take``, ``clearing cave``, ``saplings``): its legal actions, how an action
applies, its refusals, its words, its choice shape, its RL observation slot and where the
cards it picks lie. :class:`~forest_shuffle.engine.state.GameState` reaches them through
its definition's table (``GameDef.kinds``): ``legal_actions`` and ``apply_legal`` are one
lookup and a call. The RL observation's slots 0-10 are these kinds' (stable ids).
"""

from __future__ import annotations

from forest_shuffle.engine.actions import (
    CAVE,
    DONE,
    DRAW,
    MULLIGAN,
    PAY,
    SAPLING,
    TAKE,
    YES,
    Action,
)
from forest_shuffle.engine.kinds import CLEARING, DECISION_KINDS, HAND, KindDecl, register_kind
from forest_shuffle.engine.refusals import Refusal
from forest_shuffle.engine.state import (
    D_CLEARING_CAVE,
    D_DRAW,
    D_FREE,
    D_MOLE,
    D_MULLIGAN,
    D_OPTION,
    D_PAY,
    D_RACCOON,
    D_SAPLINGS,
    D_TAKE,
    D_TURN,
    VIA_FREE,
    VIA_MOLE,
    VIA_TURN,
    GameState,
    Pending,
)

# ------------------------------------------------------------ the turn


def _turn_legal(s: GameState, pend: Pending) -> list[Action]:
    # Draw, take, play, sapling, in that order (loops with append: a few items).
    p = pend.player
    hand = s.hands[p]
    g = s.game
    if len(hand) < g.hand_limit:
        out = [g.a_draw]
        a_take = g.a_take
        for c in s.clearing:
            out.append(a_take[c])
    else:
        out = []
    s._add_placements(out, p, None, None, len(hand) - 1)
    if g.turn_saplings:
        a_sapling = g.a_sapling
        for c in hand:
            out.append(a_sapling[c])
    return out


def _turn_apply(s: GameState, pend: Pending, action: Action) -> bool:
    kind = action.kind
    if kind in (DRAW, TAKE):
        s._do_draw(pend, action)
    elif kind == SAPLING:
        p = pend.player
        s._remove_from_hand(p, action.card, hidden=True)
        s.queue = s._place(p, action.card, "", -1, VIA_TURN, True, False)
    else:
        s._start_play(pend.player, action, VIA_TURN, None, pend)
    return True


def _draw_legal(s: GameState, pend: Pending) -> list[Action]:
    g = s.game
    out = [g.a_draw]
    a_take = g.a_take
    for c in s.clearing:
        out.append(a_take[c])
    return out


TURN = register_kind(KindDecl(D_TURN, _turn_legal, _turn_apply, "draw, take, play or sapling",
                              obs=1))
register_kind(KindDecl(D_DRAW, _draw_legal, _turn_apply, "draw or take (the second card)",
                       obs=2))

# ------------------------------------------------------------ payment and options


def _pay_legal(s: GameState, pend: Pending) -> list[Action]:
    hand = s.hands[pend.player]
    pool = sorted(hand) if pend.pool is None else sorted(set(hand) & pend.pool)
    last = pend.paid[-1] if pend.paid else 0
    a_pay = s.game.a_pay
    out = []
    # Cards above the last one paid that leave enough above them for the rest.
    room = len(pool) - pend.need
    for i, c in enumerate(pool):
        if i > room:
            break
        if c > last:
            out.append(a_pay[c])
    return out


def _pay_apply(s: GameState, pend: Pending, action: Action) -> bool:
    s._do_pay(pend, action.card)
    return True


def _option_legal(s: GameState, pend: Pending) -> list[Action]:
    return [s.game.a_yes, s.game.a_no]


def _option_apply(s: GameState, pend: Pending, action: Action) -> bool:
    if action.kind == YES:
        assert pend.step is not None
        s._apply_step(pend.step)
    return True


register_kind(KindDecl(D_PAY, _pay_legal, _pay_apply, "pay (a card of the hand)",
                       pick=(PAY, HAND, True), obs=3, obs_paid=True, source=HAND))
register_kind(KindDecl(D_OPTION, _option_legal, _option_apply, "yes or no", obs=4))

# ------------------------------------------------------------ free plays and the Mole


def _free_legal(s: GameState, pend: Pending) -> list[Action]:
    out = s._placements(pend.player, pend.tag or None, None)  # a new list ("": any card)
    out.append(s.game.a_done)
    return out


def _free_apply(s: GameState, pend: Pending, action: Action) -> bool:
    p = pend.player
    if action.kind != DONE:
        s._remove_from_hand(p, action.card)
        steps = s._place(p, action.card, action.side, action.tree, VIA_FREE, False, False)
        s.queue[0:0] = steps
        if pend.need != 1 and not s.over:
            pend.need -= 1 if pend.need > 0 else 0
            if s._placements(p, pend.tag or None, None):
                s.stack.append(pend)
    if not s.stack or s.stack[-1] is not pend:  # a waiting free play is next
        s._skip_unplayable_free(p)
    return True


def _mole_legal(s: GameState, pend: Pending) -> list[Action]:
    assert pend.pool is not None
    return s._mole_plays(pend.player, pend.pool) + [s.game.a_done]


def _mole_apply(s: GameState, pend: Pending, action: Action) -> bool:
    kind = action.kind
    p = pend.player
    if kind == DONE:
        s.queue[0:0] = pend.steps
    else:
        s.stack.append(pend)
        if kind == SAPLING:
            s._remove_from_hand(p, action.card, hidden=True)
            pend.steps.extend(s._place(p, action.card, "", -1, VIA_MOLE, True, False))
            s._after_mole_play(pend)
        else:
            s._start_play(p, action, VIA_MOLE, pend.pool)
    return True


register_kind(KindDecl(D_FREE, _free_legal, _free_apply, "play (a free card) or done", obs=5,
                       source=HAND))
register_kind(KindDecl(D_MOLE, _mole_legal, _mole_apply, "play (through the Mole) or done",
                       obs=7, source=HAND))

# ------------------------------------------------------------ the hand and the cave


def _raccoon_legal(s: GameState, pend: Pending) -> list[Action]:
    g = s.game
    last = pend.paid[-1] if pend.paid else 0
    return [g.a_cave[c] for c in sorted(s.hands[pend.player]) if c > last] + [g.a_done]


def _raccoon_apply(s: GameState, pend: Pending, action: Action) -> bool:
    p = pend.player
    if action.kind == CAVE:
        s._remove_from_hand(p, action.card, hidden=True)
        s.caves[p].append(action.card)
        s.forests[p].cave = len(s.caves[p])
        pend.paid.append(action.card)
        if s.hands[p]:
            s.stack.append(pend)
        else:
            s._draw_n(p, len(pend.paid))
    else:
        s._draw_n(p, len(pend.paid))
    return True


def _saplings_legal(s: GameState, pend: Pending) -> list[Action]:
    g = s.game
    return [g.a_sapling[c] for c in s.hands[pend.player]] + [g.a_done]


def _saplings_apply(s: GameState, pend: Pending, action: Action) -> bool:
    if action.kind != DONE:
        p = pend.player
        s._remove_from_hand(p, action.card, hidden=True)
        s.queue[0:0] = s._place(p, action.card, "", -1, VIA_FREE, True, False)
        if not s.over and s.hands[p]:
            s.stack.append(pend)
    return True


register_kind(KindDecl(D_RACCOON, _raccoon_legal, _raccoon_apply, "cave or done",
                       pick=(CAVE, HAND, False), obs=6, obs_paid=True, source=HAND))
register_kind(KindDecl(D_SAPLINGS, _saplings_legal, _saplings_apply, "sapling or done",
                       obs=10, source=HAND))

# ------------------------------------------------------------ the clearing


def _take_legal(s: GameState, pend: Pending) -> list[Action]:
    g = s.game
    if pend.tag:
        cards = g.cards
        return [g.a_take[c] for c in s.clearing if pend.tag in cards[c].tags]
    return [g.a_take[c] for c in s.clearing]


def _take_apply(s: GameState, pend: Pending, action: Action) -> bool:
    p = pend.player
    s.clearing.remove(action.card)
    s.hands[p].append(action.card)
    s.known[p].add(action.card)
    if (pend.need > 1 and len(s.hands[p]) < s.game.hand_limit
            and s._legal_after_take(pend)):
        pend.need -= 1
        s.stack.append(pend)
    return True


def _clearing_cave_legal(s: GameState, pend: Pending) -> list[Action]:
    pool = sorted(s.clearing)
    last = pend.paid[-1] if pend.paid else 0
    a_cave = s.game.a_cave
    return [a_cave[c] for i, c in enumerate(pool) if c > last and len(pool) - i >= pend.need]


def _clearing_cave_apply(s: GameState, pend: Pending, action: Action) -> bool:
    s.clearing.remove(action.card)
    s._clearing_to_cave(pend.player, [action.card])
    pend.paid.append(action.card)
    pend.need -= 1
    if pend.need > 0:
        s.stack.append(pend)
    return True


def _clearing_cave_refuse(s: GameState, pend: Pending, action: Action) -> str:
    if action.kind not in {a.kind for a in s.legal_actions()}:
        return ""  # the generic reasons
    if action.card not in s.clearing:
        return Refusal("card {card} is not in the clearing", card=action.card)
    return Refusal("choose clearing cards in ascending order of their numbers")


register_kind(KindDecl(D_TAKE, _take_legal, _take_apply, "take (a card from the clearing)",
                       obs=8, source=CLEARING))
register_kind(KindDecl(
    D_CLEARING_CAVE, _clearing_cave_legal, _clearing_cave_apply,
    "cave (a card from the clearing)", refuse=_clearing_cave_refuse,
    pick=(CAVE, CLEARING, True), obs=9, obs_paid=True, source=CLEARING))

# ------------------------------------------------------------ setup


def _mulligan_legal(s: GameState, pend: Pending) -> list[Action]:
    return list(s.game.a_keep_mulligan)


def _mulligan_apply(s: GameState, pend: Pending, action: Action) -> bool:
    if action.kind == MULLIGAN:
        p = pend.player
        hand = s.hands[p]
        s.box.extend(hand)
        hand.clear()
        for _ in range(s.game.opening_hand):
            if not s._draw_into_hand(p):
                break
    if not s.over:
        s._offer_mulligans(pend.need + 1)
    return False


register_kind(KindDecl(D_MULLIGAN, _mulligan_legal, _mulligan_apply, "keep or mulligan", obs=0))

#: The kinds declared here, in the order of their RL observation slots.
BASE_KINDS = (D_MULLIGAN, D_TURN, D_DRAW, D_PAY, D_OPTION, D_FREE, D_RACCOON, D_MOLE, D_TAKE,
              D_CLEARING_CAVE, D_SAPLINGS)

GameState.PICK_KINDS.update({d.name: d.pick for d in (DECISION_KINDS[k] for k in BASE_KINDS)
                             if d.pick is not None})

__all__ = ["BASE_KINDS", "TURN"]
