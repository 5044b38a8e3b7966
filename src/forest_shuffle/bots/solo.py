"""The solo player: Dartmoor's solo challenges played for the goal and the medal.

Contract:

- :class:`SoloGoal` is what the player plays for, read from the game's definition and the
  solo data (``games/dartmoor_solo.py``: the challenge's goal, its ``need`` and the medal
  thresholds), never written here: :meth:`SoloGoal.progress` and :meth:`SoloGoal.result`
  call that module's ``goal_progress`` and ``result_of`` (the one copy of the goal check
  and the medals). :func:`goal_of` is None for a game that is no solo challenge.
- :func:`medal_utility` is the worth of a finished game: nothing of the medals without the
  goal; the share of the goal reached, then, with the goal met, a step for the goal and a
  soft step for each medal threshold (the logistic of the score's distance to it over
  :data:`SOFT` points), and a little for every point (so a game far from any threshold still
  prefers more points).
- :func:`solo_action` and :func:`solo_ranked` are greedy's policy (``bots.greedy``) with the
  goal added (:class:`GoalEval`): a play is worth :data:`GOAL` points times the share of
  the goal it adds (measured by placing it in the forest and asking the goal's progress,
  taken back at once), a card in hand or in the clearing that share of the goal it would
  add if placed now, times :data:`KEEP`, and a card into the cave what one more cave card
  adds (also the deck cards a play's ``deck_to_cave`` effect puts there, half for a
  bonus, :meth:`GoalEval.cave_gain`). Once the goal is met the policy is greedy's own.
- :class:`SoloBot` (``solo``, options ``time``, ``iterations``, ``width``, ``z``, ``goal``,
  ``keep``, ``depth``, ``turns``, ``plan``) is the search bot
  (:class:`~forest_shuffle.bots.mcts.MCTSBot`, the same budget rules: ``time`` seconds a
  turn or ``iterations`` rollouts a decision) whose race
  (:func:`~forest_shuffle.bots.mcts.race`) takes its candidates from the goal-aware policy,
  plays every sample on with the fast goal-aware policy for ``depth`` own turns (0: to the
  end of the game) and judges it by :func:`judge`: :func:`medal_utility` of a finished
  game, the same utility of :func:`cutoff_estimate` (an expected final score and the
  goal's chance; with ``plan`` the threshold cards' :func:`prospects`) of one cut off.
  With ``turns=1`` it races at a turn's first decision only (the policy answers the rest
  of the turn). Hidden cards (Anna's undrawn automa cards, the deck's order, the box) are
  sampled from the view alone (:mod:`~forest_shuffle.bots.determinize` and the solo
  state's ``_load_view``). With too few samples it plays the goal-aware policy's choice.
  In a game that is no solo challenge it is the search bot.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from forest_shuffle.bots.features import logistic
from forest_shuffle.bots.greedy import (
    Evaluator,
    Situation,
    card_key,
    distinct_moves,
    hand_value,
    situation_of_state,
    situation_of_view,
)
from forest_shuffle.bots.mcts import MIN_ROUNDS, MCTSBot, Node, hand_points, race
from forest_shuffle.cards.forest import Dweller, Forest, Host, host_of_card
from forest_shuffle.cards.model import SIDES
from forest_shuffle.engine.actions import SAPLING, Action
from forest_shuffle.engine.game import GameDef
from forest_shuffle.engine.state import GameState
from forest_shuffle.engine.view import PlayerView
from forest_shuffle.games.dartmoor_solo import (
    MEDALS,
    SoloResult,
    challenge_of,
    goal_progress,
    is_solo,
    result_of,
)
from forest_shuffle.games.dartmoor_state import count_with

#: Points the whole goal is worth to the policy (a share of it for each step towards it).
GOAL = 40.0
#: The part of a card's goal worth counted while it is in hand or the clearing.
KEEP = 0.6
#: Points over which a medal's step is soft in :func:`medal_utility`.
SOFT = 20.0
#: What reaching the goal is worth in :func:`medal_utility` (each medal is worth 1 more).
GOAL_STEP = 2.0
#: What each point is worth in :func:`medal_utility`.
POINT = 0.005
#: The player's own turns a rollout plays before it is cut off and judged by
#: :func:`cutoff_estimate` (``depth`` of :class:`SoloBot`; 0: to the end of the game).
DEPTH = 3
#: Points each card still in the deck is worth at a cut-off: the goal-aware policy's pace
#: (its games score about 200 from the 119 cards the deck holds after the setup).
PACE = 1.6
#: Deck cards one turn of the player and Anna's reply use up (47 turns from 119 cards).
CARDS_A_TURN = 2.5
#: Weight of greedy's keep value of a hand card at a cut-off.
HAND_WEIGHT = 0.6


@dataclass(frozen=True, slots=True)
class SoloGoal:
    """The goal of a solo challenge as its definition states it: the challenge number,
    the goal (the data's mapping), ``need`` and the medal thresholds."""

    game: GameDef
    challenge: int
    goal: Mapping[str, Any]
    need: int
    thresholds: Mapping[str, int]

    def progress(self, forest: Forest) -> int:
        """The goal's progress in ``forest``, at most ``need`` (more counts for nothing)."""
        return min(goal_progress(self.game, forest, self.goal), self.need)

    def result(self, forest: Forest) -> SoloResult:
        """The challenge's result for ``forest`` (goal, score, medal)."""
        return result_of(self.game, forest, self.challenge)


@functools.cache
def goal_of(game: GameDef) -> SoloGoal | None:
    """The goal of the solo challenge ``game`` is, from its data (None: no solo game)."""
    if not is_solo(game):
        return None
    ch = challenge_of(int(game.options["challenge"]))
    return SoloGoal(game, ch.number, ch.goal, int(ch.goal["min"]), ch.thresholds)


def medal_utility(result: SoloResult) -> float:
    """The worth of a finished solo game (see the module contract): higher is better."""
    return _utility(result, result.score, 1.0 if result.goal_met else 0.0)


def _utility(result: SoloResult, score: float, met: float) -> float:
    """:func:`medal_utility` for a score and a chance ``met`` that the goal is met."""
    u = GOAL_STEP * min(result.have, result.need) / result.need + POINT * score
    if met > 0:
        u += met * (GOAL_STEP + sum(logistic((score - result.thresholds[m]) / SOFT)
                                    for m in MEDALS))
    return u


def turns_left(state: GameState) -> float:
    """The player's turns still to come, estimated from the deck (:data:`CARDS_A_TURN`)."""
    return len(state.deck) / CARDS_A_TURN


def _chance(have: float, turn: int, left: float, need: int) -> float:
    """The chance a count ``have`` after ``turn`` turns reaches ``need`` within ``left``
    more turns at its pace so far: the logistic of the count carried over the turns left,
    minus ``need``, over a quarter of ``need``."""
    ahead = have + have / max(1, turn) * left
    return logistic((ahead - need + 0.5) / max(1.0, need / 4))


#: Points rules that pay more once a count of a tag reaches a threshold, alone (the solo
#: reading): rule -> (the tag's param, or the tag itself; the threshold's param; the
#: points below it; the points at it).
THRESHOLDS: Mapping[str, tuple[str, str, str, str]] = {
    "tag_threshold": ("tag", "min_count", "points_each", "points_each_if_met"),
    "moor_majority": ("=moor", "solo_min_moors", "points_each", "points_each_if_most"),
}


def prospects(forest: Forest, turn: int, left: float) -> float:
    """Points the forest's threshold cards (:data:`THRESHOLDS`, from each species' points
    rule) may still gain: for each card below its threshold, the points it would gain
    times :func:`_chance` of its tag's count reaching the threshold."""
    counts: dict[str, int] = {}
    v = 0.0
    for t in forest.trees:
        species = [t.species] + [d.species for side in SIDES for d in t.slots[side]]
        for sp in species:
            if sp is None or sp.points.rule not in THRESHOLDS:
                continue
            tag_key, need_key, lo_key, hi_key = THRESHOLDS[sp.points.rule]
            params = sp.points.params
            tag = tag_key[1:] if tag_key.startswith("=") else str(params[tag_key])
            need = int(params[need_key])
            n = counts.get(tag)
            if n is None:
                n = counts[tag] = count_with(forest, tag)
            if n < need:
                v += (int(params[hi_key]) - int(params[lo_key])) * _chance(n, turn, left,
                                                                           need)
    return v


def cutoff_estimate(state: GameState, me: int, plan: bool = True) -> tuple[float, float]:
    """At a rollout's cut-off (game not over): the expected final score (the score now,
    greedy's keep value of the hand times :data:`HAND_WEIGHT`, :data:`PACE` points a deck
    card still to draw, and with ``plan`` the threshold cards' :func:`prospects`) and the
    chance the goal will be met (1 if met, else :func:`_chance` of the goal's progress)."""
    goal = goal_of(state.game)
    assert goal is not None
    forest = state.forests[me]
    left = turns_left(state)
    score = state.game.totals([forest])[0] + hand_points(state, me, HAND_WEIGHT) \
        + PACE * len(state.deck)
    if plan:
        score += prospects(forest, state.turn, left)
    have = goal.progress(forest)
    if have >= goal.need:
        return score, 1.0
    return score, _chance(have, state.turn, left, goal.need)


def judge(state: GameState, me: int, plan: bool = True) -> float:
    """The race's ``judge``: :func:`medal_utility` of a finished rollout; of one cut off,
    the same utility of :func:`cutoff_estimate` (the expected score, the goal met with the
    estimated chance)."""
    goal = goal_of(state.game)
    assert goal is not None
    result = goal.result(state.forests[me])
    if state.over:
        return medal_utility(result)
    score, met = cutoff_estimate(state, me, plan)
    return _utility(result, score, met)


# ---------------------------------------------------------------------- the policy


class GoalEval(Evaluator):
    """Greedy's estimates with the goal's share added (see the module contract)."""

    def __init__(self, s: Situation, exact: bool, goal: SoloGoal, weight: float = GOAL,
                 keep: float = KEEP) -> None:
        super().__init__(s, exact)
        self.goal = goal
        self.forest = s.forests[s.player]
        self.now = goal.progress(self.forest)
        #: points a unit of progress is worth (0 once the goal is met)
        self.unit = 0.0 if self.now >= goal.need else weight / goal.need
        self.keep = keep
        self._rel: dict[tuple[object, ...], float] = {}  # card key: its relevance
        self._ag: dict[tuple[object, ...], float] = {}  # rollouts: (kind, side, key): gain
        self._cave_goal = 0.0  # points of goal one more cave card adds (set with ``c``)

    def _gain(self, place: Host | tuple[int, str, Dweller]) -> int:
        """The goal's progress added by ``place`` (a new host, or a dweller at a host's
        side), placed in the forest and taken back."""
        forest = self.forest
        if isinstance(place, Host):
            forest.add_host(place)
            try:
                return self.goal.progress(forest) - self.now
            finally:
                forest.remove_last_host()
        tree, side, d = place
        forest.add_dweller(tree, side, d)
        try:
            return self.goal.progress(forest) - self.now
        finally:
            forest.remove_top_dweller(tree, side)

    def action_gain(self, a: Action) -> float:
        """Points of goal a play adds (0 for anything else, or once the goal is met); for
        rollouts (not ``exact``) one figure per card and side, measured at the first
        host it is legal at."""
        if not self.unit or not a.card:
            return 0.0
        if self.exact:
            return self._action_gain(a)
        key = (a.kind, a.side, card_key(a.card, self.t.cards))
        v = self._ag.get(key)
        if v is None:
            v = self._ag[key] = self._action_gain(a)
        return v

    def _action_gain(self, a: Action) -> float:
        if a.kind == SAPLING:
            return self.unit * self._gain(host_of_card(self.s.game.catalog, a.card, True))
        card = self.card(a.card)
        if a.side:
            if a.side not in card.halves or not 0 <= a.tree < len(self.forest.trees):
                return 0.0
            half = card.halves[a.side]
            return self.unit * self._gain((a.tree, a.side, Dweller(half.species, half.symbol,
                                                                   a.card)))
        if card.species is None:
            return 0.0
        return self.unit * self._gain(host_of_card(self.s.game.catalog, a.card))

    def relevance(self, cid: int) -> float:
        """Points of goal card ``cid`` would add if placed now (its best half or host on
        any host), times :data:`KEEP`."""
        if not self.unit:
            return 0.0
        card = self.card(cid)
        key = card_key(cid, self.t.cards)
        got = self._rel.get(key)
        if got is not None:
            return got
        best = 0
        if card.species is not None:
            best = self._gain(host_of_card(self.s.game.catalog, cid))
        else:
            trees = self._probe_trees()
            for side, half in card.halves.items():
                d = Dweller(half.species, half.symbol, cid)
                for tree in trees:
                    best = max(best, self._gain((tree, side, d)))
        v = self._rel[key] = self.keep * self.unit * best
        return v

    def _probe_trees(self) -> list[int]:
        """The hosts a card in hand is tried at: every host (exact), else the one
        holding fewest cards (rollouts)."""
        trees = self.forest.trees
        if self.exact or len(trees) <= 1:
            return list(range(len(trees)))
        return [min(range(len(trees)),
                    key=lambda i: sum(len(st) for st in trees[i].slots.values()))]

    # -- greedy's estimates, with the goal

    @property
    def c(self) -> Any:
        c = self._c
        if c is None:
            c = super().c
            if self.unit:
                forest = self.forest
                forest.cave += 1
                try:
                    more = self.goal.progress(forest) - self.now
                finally:
                    forest.cave -= 1
                c.cave_points += self.unit * more
                self._cave_goal = self.unit * more
        return c

    def cave_gain(self, a: Action) -> float:
        """Points of goal the cards a play puts from the deck into the cave add (the
        ``deck_to_cave`` ops of its effect, and half those of its bonus, which needs a
        matching payment): greedy counts them for nothing, a cave goal needs them."""
        if not self.unit or a.kind == SAPLING or not a.card:
            return 0.0
        _ = self.c  # sets _cave_goal
        per = self._cave_goal
        if not per:
            return 0.0
        card = self.card(a.card)
        sp = card.halves[a.side].species if a.side in card.halves else card.species
        if sp is None:
            return 0.0
        v = 0.0
        for eff, w in ((sp.effect, 1.0), (sp.bonus, 0.5)):
            if eff is None:
                continue
            if eff.op == "deck_to_cave":
                v += w * int(eff.params.get("n", 1))
            elif eff.op == "deck_to_cave_per_tag":
                v += w * count_with(self.forest, str(eff.params["tag"]))
        return per * min(v, self.goal.need - self.now)

    @property
    def hv(self) -> dict[int, float]:
        hv = self._hv
        if hv is None:
            c = self.c
            hv = self._hv = {cid: hand_value(cid, c) + self.relevance(cid)
                             for cid in self.s.hand}
        return hv

    def play_value(self, a: Action, pool: Any = None) -> float:
        return super().play_value(a, pool) + self.action_gain(a) + self.cave_gain(a)

    def _free_value(self, a: Action) -> float:
        return super()._free_value(a) + self.action_gain(a) + self.cave_gain(a)

    def _take_value(self, cid: int) -> float:
        v = self.hv.get(cid)
        return hand_value(cid, self.c) + self.relevance(cid) if v is None else v


def _eval(s: Situation, exact: bool, weight: float = GOAL, keep: float = KEEP) -> Evaluator:
    goal = goal_of(s.game)
    if goal is None:
        return Evaluator(s, exact)
    return GoalEval(s, exact, goal, weight, keep)


def solo_action(state: GameState, exact: bool = False, weight: float = GOAL,
                keep: float = KEEP) -> Action:
    """The goal-aware policy's choice for the player to move in a full state (rollouts)."""
    return _eval(situation_of_state(state), exact, weight, keep).choose()


def solo_view_action(view: PlayerView, weight: float = GOAL, keep: float = KEEP) -> Action:
    """The goal-aware policy's choice from a view (exact estimates)."""
    return _eval(situation_of_view(view), True, weight, keep).choose()


def solo_ranked(view: PlayerView, k: int, weight: float = GOAL,
                keep: float = KEEP) -> list[Action]:
    """At most ``k`` promising legal actions from a view, the goal-aware choice first."""
    return _eval(situation_of_view(view), True, weight, keep).ranked(k)


def solo_candidates(view: PlayerView, width: int, weight: float = GOAL,
                    keep: float = KEEP) -> list[Action]:
    """The race's root moves: the goal-aware policy's distinct moves, its choice first,
    a draw and a play among them when both are legal (greedy's rule,
    :func:`~forest_shuffle.bots.greedy.distinct_moves`)."""
    ev = _eval(situation_of_view(view), True, weight, keep)
    ranked = ev.ranked(len(view.legal_actions))
    return distinct_moves(ranked, view.game.cards, width)


# ---------------------------------------------------------------------- the bot


class SoloBot(MCTSBot):
    """The search bot playing a solo challenge for its goal and medal (module contract).
    ``time=0`` (and no ``iterations``): the goal-aware policy alone, no search.
    ``depth``: own turns a rollout plays before its cut-off (0: to the end of the game);
    ``turns=1``: the race runs at a turn's first decision only, the policy answers the
    others (payments, options, free plays); ``plan=1``: a cut-off counts the threshold
    cards' :func:`prospects`."""

    name = "solo"

    def __init__(self, seed: int = 0, time: float = 1.0, iterations: int = 0,
                 width: int = 6, z: float = 2.0, goal: float = GOAL,
                 keep: float = KEEP, depth: int = DEPTH, turns: int = 1,
                 plan: int = 1) -> None:
        if time < 0 or goal < 0 or keep < 0 or depth < 0:
            raise ValueError("time, goal, keep and depth must be >= 0")
        if turns not in (0, 1) or plan not in (0, 1):
            raise ValueError("turns must be 0 (race every decision) or 1 (turns only), "
                             "plan 0 or 1")
        super().__init__(seed, time=time or 1.0, iterations=iterations, width=width, z=z)
        self.time = float(time)
        self.goal = float(goal)
        self.keep = float(keep)
        self.depth = int(depth)
        self.turns = int(turns)
        self.plan = int(plan)
        #: seconds one rollout took (per deck card left when rollouts run to the end),
        #: measured (None: not yet)
        self._rollout_cost: float | None = None

    def _run(self, view: PlayerView, deadline: float | None, iterations: int,
             seed: int, carry: Node | None = None, exact: int = 0
             ) -> tuple[dict[Action, tuple[int, float]], Node]:
        if goal_of(view.game) is None:
            return super()._run(view, deadline, iterations, seed, carry, exact)
        self.last_iterations = 0
        if self.turns and (view.pending is None or view.pending.kind != "turn"):
            return {solo_view_action(view, self.goal, self.keep): (1, 0.0)}, Node()
        cands = solo_candidates(view, self.width, self.goal, self.keep)
        if len(cands) == 1 or iterations <= 0 and not self._affords(view, deadline,
                                                                    len(cands)):
            return {cands[0]: (1, 0.0)}, Node()
        policy = functools.partial(_rollout_move, weight=self.goal, keep=self.keep)
        start = time.monotonic()
        if self.depth:
            cut = functools.partial(judge, plan=bool(self.plan))
            stats = race(view, deadline, iterations, seed, self.depth, self.width,
                         z=self.z, end=0, candidates=cands, policy=policy, judge=cut)
        else:
            stats = race(view, deadline, iterations, seed, 1, self.width, z=self.z,
                         end=1 << 30, candidates=cands, policy=policy, judge=judge)
        done = sum(v for v, _ in stats.values())
        if done >= len(cands):
            self._rollout_cost = (time.monotonic() - start) / done / self._span(view)
        self.last_iterations = done
        return stats, Node()

    def _span(self, view: PlayerView) -> float:
        """What a rollout's cost is measured per: one rollout when it is cut off after
        ``depth`` turns, a deck card left when it runs to the end."""
        return 1.0 if self.depth else float(max(1, view.deck_size))

    def _affords(self, view: PlayerView, deadline: float | None, width: int) -> bool:
        """Whether the time left can pay for a race of ``width`` candidates (the rounds
        it needs, at the rollout cost measured so far)."""
        if deadline is None:
            return True
        left = deadline - time.monotonic()
        if left <= 0:
            return False
        cost = self._rollout_cost
        return cost is None or left >= MIN_ROUNDS * width * cost * self._span(view)


def _rollout_move(state: GameState, sharp: bool, weight: float = GOAL,
                  keep: float = KEEP) -> Action:
    """The rollout policy: the goal-aware policy, exact when ``sharp``."""
    return solo_action(state, sharp, weight, keep)


__all__ = ["DEPTH", "GOAL", "KEEP", "THRESHOLDS", "GoalEval", "SoloBot", "SoloGoal",
           "cutoff_estimate", "goal_of", "judge", "medal_utility", "prospects", "solo_action",
           "solo_candidates", "solo_ranked", "solo_view_action"]
