"""Search over determinizations: paired racing (default) or information-set MCTS.

Contract: :class:`MCTSBot` chooses from a :class:`~forest_shuffle.engine.view.PlayerView` only.
Both methods sample full states consistent with the view
(:class:`~forest_shuffle.bots.determinize.Determinizer`), play on with the greedy policy for
every player (``bots.greedy``, the fast variant) for ``depth`` rounds or to the end of the
game, and score the result: the own total plus a value for hand cards, minus the best
rival's, squashed into [0, 1] (:func:`evaluate`; ``hv=0`` a flat 1.5 points a hand card,
``hv=1`` greedy's keep value of each card, ``hv=2`` that plus the empty tree slots while the
deck is full; ``hv=3`` a linear fit to self-play final scores, :func:`fitted_points`;
``hv=4`` as 2 with a heavier hand; ``hv=5`` the learned network's win probability from the
seat's own features, ``hv=6`` the logistic of its predicted margin, :mod:`bots.value`;
``net=PATH`` reads that network file instead of the shipped weights). ``rival=1``
measures against the mean of the rivals instead of the best one (the same with two
players).

- ``race=1`` (default, :func:`race`): the ``width`` best root actions by the greedy ranking
  (``diverse=1``: one per distinct move, so not the same card on six trees, and with
  ``cover=1`` at least one draw and one play when both are legal,
  :func:`diverse_candidates`) are each played out on the SAME sample (the rollouts are
  deterministic, so differences come from the move, not the cards); a candidate whose
  paired difference to the leader falls below zero by ``z`` standard errors is dropped (but
  the closest rival keeps racing the leader, so the budget is spent); the survivor with the
  best mean is chosen; with fewer than ``MIN_ROUNDS`` paired samples, greedy's choice. The
  rest of the own turn after the root action is played by the greedy policy in the rollout;
  the later choices of the turn get their own race. ``exact=k``: the turn decisions of the
  first ``k`` rounds of a rollout use the exact greedy (the opponent's own policy, so its
  reply is modelled as it will be played) instead of the fast one, when the turn budget is
  at least ``EXACT_MIN_TIME`` (or ``iterations`` is set). ``end=K``: with at most
  ``K`` cards left in the deck, rollouts run to the end of the game.
- ``race=0`` (:func:`search`): single-observer ISMCTS over the player's own decisions of the
  current turn (children are actions, chosen by UCB1 with exploration ``c`` among those
  legal in the sample, with availability counts); the most visited action is chosen.
  ``reuse=1`` continues the chosen action's subtree at the next choice of the same turn.

Budget: ``time`` is seconds per TURN. The choices inside one turn (the turn action, the
payment card by card, the options...) share it: the first gets ``share`` (90 %) of it, the
others half of what is left; a forced choice (one legal action) returns at once and costs
nothing. ``iterations`` > 0 replaces time by a fixed number of iterations (rollouts) per
decision (reproducible for a seed). An explicit :class:`~forest_shuffle.bots.base.Budget`
given to :meth:`MCTSBot.choose` overrides both for that decision. ``workers=2`` runs a
second search in a helper process and adds its root statistics to the own.
"""

from __future__ import annotations

import atexit
import math
import random
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field

from forest_shuffle.bots.base import Bot, Budget
from forest_shuffle.bots.determinize import Determinizer
from forest_shuffle.bots.features import logistic
from forest_shuffle.bots.greedy import (
    deck_start,
    diverse_candidates,
    greedy_action,
    hand_values,
    ranked_actions,
    ranked_view_actions,
)
from forest_shuffle.bots.value import MARGIN, WIN, learned_reward, shipped_net
from forest_shuffle.engine.actions import Action
from forest_shuffle.engine.state import GameState
from forest_shuffle.engine.view import PlayerView
from forest_shuffle.workers import process_pool

#: Points one hand card is worth when a rollout is cut off.
HAND_CARD = 1.5
#: Weight of greedy's keep value of a hand card at a cut-off (``hv=1``).
HAND_WEIGHT = 0.6
#: The same at ``hv=4`` (a card kept is worth about what it later scores).
HAND_WEIGHT_HIGH = 1.5
#: Value of an empty slot at a host at the start of the game (``hv=2``), falling to 0
#: as the deck runs out (times the fraction of the deck left, :func:`deck_left`). Tuned
#: as 0.8 when the fraction was taken of 158 cards in every game; 0.8 * 128 / 158 keeps
#: the base 2-player evaluation as it was (128 cards are dealt into it).
SLOT = 0.648
#: Score difference that moves the reward from 0.5 to about 0.73.
SCALE = 15.0
#: Points added to the winner's margin (taken from a loser's) when a rollout finishes the
#: game, for the hand-fitted evaluations (``hv`` 0 to 4).
FINISHED_BONUS = 10.0
#: The part of a finished game's reward given by the margin, not the win, for ``hv=5``
#: (:func:`finished_reward`).
FINISHED_MARGIN = 0.05
#: Paired samples before the race drops a candidate; with fewer when the budget runs
#: out, the race returns greedy's choice.
MIN_ROUNDS = 6
#: Below this many seconds a turn, ``exact`` is ignored: sharp replies make a rollout
#: about three times slower, and a small budget then gets too few samples.
EXACT_MIN_TIME = 0.5
#: Fitted cut-off values (``hv=3``): points per unit of greedy's keep value of the hand
#: cards, per empty tree slot and per tree, each ``a + b * r`` with ``r`` the fraction of
#: the deck left (:func:`deck_left`). Least squares on the final-score margin of 1500
#: greedy self-play games (2 players, base game), the current score difference taken as
#: given (``python benchmarks/bench_bots.py --fit 1500 --seed 7`` refits them); the ``b``
#: terms were fitted with the fraction of 158 cards and are rescaled by 128 / 158 to the
#: fraction of the 128 cards a base 2-player game deals from.
FIT_HAND = (1.52, -0.624)
FIT_FREE = (1.13, -13.456)
FIT_TREE = (-7.66, 61.343)


@dataclass(slots=True)
class Node:
    """A tree node: statistics per child action (visits, total reward, availability)."""

    children: dict[Action, Node] = field(default_factory=dict)
    visits: int = 0
    total: float = 0.0
    avail: int = 0


def deck_left(state: GameState) -> float:
    """The fraction of the game's deck still to draw (1 at setup, 0 when it is out)."""
    return min(1.0, len(state.deck) / deck_start(state.game, state.num_players))


def hand_points(state: GameState, p: int, weight: float = HAND_WEIGHT) -> float:
    """What player ``p``'s hand is worth at a cut-off: each card by its usefulness to the
    own forest (greedy's keep value), the best hand limit of the game counted."""
    hand = state.hands[p]
    if not hand:
        return 0.0
    vals = hand_values(state, p)
    vals.sort(reverse=True)
    return weight * sum(vals[:state.game.hand_limit])


def fitted_points(state: GameState, p: int) -> float:
    """Player ``p``'s expected further points at a cut-off beyond the current score (the
    fitted model ``FIT_*``; terms common to all players are left out)."""
    r = deck_left(state)
    vals = hand_values(state, p)
    vals.sort(reverse=True)
    hand = sum(vals[:state.game.hand_limit])
    f = state.forests[p]
    free = sum(1 for t in f.trees for st in t.slots.values() if not st)
    return ((FIT_HAND[0] + FIT_HAND[1] * r) * hand + (FIT_FREE[0] + FIT_FREE[1] * r) * free
            + (FIT_TREE[0] + FIT_TREE[1] * r) * len(f.trees))


def evaluate(state: GameState, me: int, hv: int = 0, scale: float = SCALE,
             rival: int = 0, net: str = "") -> float:
    """The reward of a (possibly unfinished) state for player ``me``, in [0, 1]: the
    logistic of the value difference to the best rival (``rival=1``: to the mean of the
    rivals) over ``scale`` (``hv`` 5 and 6: the learned network,
    :func:`~forest_shuffle.bots.value.learned_reward`, the file ``net`` or the shipped
    one)."""
    if hv >= 5 and not state.over:
        return learned_reward(state, me, scale, WIN if hv == 5 else MARGIN, net)
    sc = state.game.totals_fn()(state.forests)
    if hv >= 5 and len(sc) > 1:  # finished (an unfinished state returned above)
        return finished_reward(sc, me, hv, scale)
    if state.over:
        vals = [float(v) for v in sc]
    elif hv == 3:
        vals = [float(v) + fitted_points(state, i) for i, v in enumerate(sc)]
    elif hv:
        w = HAND_WEIGHT_HIGH if hv >= 4 else HAND_WEIGHT
        vals = [v + hand_points(state, i, w) for i, v in enumerate(sc)]
        if hv >= 2:
            early = deck_left(state)
            for i, f in enumerate(state.forests):
                free = sum(1 for t in f.trees for st in t.slots.values() if not st)
                vals[i] += SLOT * early * free
    else:
        limit = state.game.hand_limit
        vals = [v + HAND_CARD * min(len(h), limit) for v, h in zip(sc, state.hands,
                                                                    strict=True)]
    mine = vals[me]
    # No rival in a solo game: the definition's par (the challenge's bronze score).
    others = [v for i, v in enumerate(vals) if i != me]
    if not others:
        best = float(state.game.options.get("solo_par", 0))
    elif rival == 1:
        best = sum(others) / len(others)
    else:
        best = max(others)
    diff = mine - best
    if state.over:
        diff += FINISHED_BONUS if diff > 0 else -FINISHED_BONUS if diff < 0 else 0.0
    return logistic(diff / scale)


def finished_reward(totals: list[int], me: int, hv: int, scale: float = SCALE) -> float:
    """The learned evaluations' reward for a finished game, on their own scale: for
    ``hv=5`` (a win probability) the seat's win share (1, 1/k for a k-way tie, 0), a
    ``FINISHED_MARGIN`` part of it given by the logistic of the margin to the best rival
    over ``scale`` so that a larger win still counts; for ``hv=6`` (a predicted margin)
    that logistic alone. Not the hand-fitted evaluation's margin with ``FINISHED_BONUS``:
    a rollout that ends the game must be judged as the network judges those that do not,
    or a win by a few points would count for less than a lead the network trusts (and a
    loss for more), and the search would shun ending games it wins and seek ending those
    it loses."""
    mine = totals[me]
    best = max(v for i, v in enumerate(totals) if i != me)
    margin = logistic((mine - best) / scale)
    if hv != 5:
        return margin
    share = 0.0 if mine < best else 1.0 if mine > best else 1.0 / totals.count(mine)
    return (1.0 - FINISHED_MARGIN) * share + FINISHED_MARGIN * margin


def _horizon(view: PlayerView, depth: int, end: int) -> int:
    """The turn at which rollouts stop: ``depth`` rounds on, or never (the end of the
    game) when at most ``end`` cards are left in the deck."""
    if view.deck_size <= end:
        return 1 << 30
    return view.turn + depth * view.num_players


def search(view: PlayerView, deadline: float | None,
           iterations: int, seed: int, c: float, depth: int,
           width: int = 6, hv: int = 0,
           root: Node | None = None, end: int = 0) -> dict[Action, tuple[int, float]]:
    """Run ISMCTS until ``deadline`` (``time.monotonic``) or for ``iterations``; return the
    root statistics: action -> (visits, total reward). ``root`` continues a tree (the
    subtree of the action chosen at an earlier decision of this turn)."""
    return search_tree(view, deadline, iterations, seed, c, depth, width, hv,
                       root, end)[0]


def search_tree(view: PlayerView, deadline: float | None,
                iterations: int, seed: int, c: float, depth: int, width: int = 6,
                hv: int = 0, root: Node | None = None, end: int = 0
                ) -> tuple[dict[Action, tuple[int, float]], Node]:
    """:func:`search`, also returning the root node (for reuse later in the turn)."""
    rng = random.Random(seed)
    det = Determinizer(view)
    me = view.player
    turn = view.turn
    horizon = _horizon(view, depth, end)
    if root is None:
        root = Node()
    root_cands = ranked_view_actions(view, width)
    done = 0
    while True:
        if iterations > 0:
            if done >= iterations:
                break
        elif deadline is not None and time.monotonic() >= deadline:
            break
        done += 1
        state = det.sample(rng)
        node = root
        path: list[Node] = [root]
        # Selection and expansion over the own decisions of this turn.
        while (not state.over and state.to_move == me and state.turn == turn):
            legal = state.legal_actions()
            if len(legal) == 1:
                state.apply(legal[0])
                continue
            if node is root:
                legal = root_cands
            elif len(legal) > width:
                legal = ranked_actions(state, width)
            children = node.children
            untried = [a for a in legal if a not in children]
            for a in legal:
                ch = children.get(a)
                if ch is not None:
                    ch.avail += 1
            if untried:
                a = untried[0]
                child = Node(avail=1)
                children[a] = child
                state.apply(a)
                path.append(child)
                break
            best_a = legal[0]
            best_u = -1.0
            for a in legal:
                ch = children[a]
                u = ch.total / ch.visits + c * math.sqrt(math.log(ch.avail + 1) / ch.visits) \
                    if ch.visits else 1e9
                if u > best_u:
                    best_u, best_a = u, a
            node = children[best_a]
            state.apply(best_a)
            path.append(node)
        # Rollout with the fast greedy policy.
        while not state.over and state.turn < horizon:
            state.apply(greedy_action(state, exact=False))
        r = evaluate(state, me, hv)
        for n in path:
            n.visits += 1
            n.total += r
    return {a: (ch.visits, ch.total) for a, ch in root.children.items()}, root


def race(view: PlayerView, deadline: float | None,
         iterations: int, seed: int, depth: int, width: int = 6, hv: int = 0,
         z: float = 2.0, end: int = 0, scale: float = SCALE, diverse: int = 1,
         exact: int = 0, pick: float = 0.0, cover: int = 1, rival: int = 0,
         net: str = "", *, candidates: Sequence[Action] | None = None,
         policy: Callable[[GameState, bool], Action] | None = None,
         judge: Callable[[GameState, int], float] | None = None,
         ) -> dict[Action, tuple[int, float]]:
    """Paired racing at the root: every surviving candidate (greedy's ``width`` best) is
    played out on the same determinization, so their differences are measured on common
    cards (the rollouts are deterministic). A candidate whose paired difference to the
    leader is below zero by more than ``z`` standard errors is dropped (down to the leader
    and its closest rival, which race on until the budget is spent). With ``pick`` > 0,
    greedy's choice, if still racing, is kept unless the leader beats it by ``pick``
    paired standard errors. Returns root statistics like :func:`search` (survivors have
    the most visits; only the kept action when greedy's choice is kept).

    Another player may race with its own parts: ``candidates`` (its root moves, its own
    choice first), ``policy`` (the rollout move of the player to move, ``policy(state,
    sharp)``; default greedy's) and ``judge`` (the reward of a rollout's last state for
    ``me``, ``judge(state, me)``; default :func:`evaluate`); the solo player
    (:mod:`forest_shuffle.bots.solo`) does."""
    rng = random.Random(seed)
    det = Determinizer(view)
    me = view.player
    horizon = _horizon(view, depth, end)
    move = policy or greedy_action
    if candidates is not None:
        cands = list(candidates)
    else:
        cands = (diverse_candidates(view, width, bool(cover)) if diverse
                 else ranked_view_actions(view, width))
    alive = list(cands)
    n = {a: 0 for a in cands}
    tot = {a: 0.0 for a in cands}
    rewards: dict[Action, list[float]] = {a: [] for a in cands}
    done = 0
    rounds = 0
    while len(alive) > 1:
        if iterations > 0:
            if done >= iterations:
                break
        elif deadline is not None and time.monotonic() >= deadline:
            break
        base = det.sample(rng)
        rounds += 1
        for a in alive:
            state = base.clone()
            state.apply(a)
            sharp = view.turn + exact * view.num_players
            while not state.over and state.turn < horizon:
                sharp_now = state.turn < sharp and state.stack[-1].kind == "turn"
                state.apply(move(state, sharp_now))
            r = (evaluate(state, me, hv, scale, rival, net) if judge is None
                 else judge(state, me))
            n[a] += 1
            tot[a] += r
            rewards[a].append(r)
            done += 1
        if rounds >= MIN_ROUNDS:
            lead = max(alive, key=lambda x: tot[x] / n[x])
            lr = rewards[lead]
            keep: list[Action] = []
            runner: Action | None = None
            best_out = -1e18
            for a in alive:
                if a == lead:
                    keep.append(a)
                    continue
                ra = rewards[a]
                k = min(len(ra), len(lr))
                d = [ra[-k + i] - lr[-k + i] for i in range(k)]
                mean = sum(d) / k
                var = sum((x - mean) ** 2 for x in d) / max(1, k - 1)
                upper = mean + z * math.sqrt(var / k)
                if upper + 1e-9 >= 0:
                    keep.append(a)
                elif upper > best_out:
                    best_out, runner = upper, a
            if len(keep) == 1 and runner is not None:
                keep.append(runner)  # keep racing the closest rival: the budget is used
            alive = [a for a in cands if a in keep]
    out: dict[Action, tuple[int, float]] = {}
    if rounds < MIN_ROUNDS and len(cands) > 1:
        # Too few paired samples to tell the candidates apart: greedy's choice.
        out[cands[0]] = (max(1, n[cands[0]]), tot[cands[0]] if n[cands[0]] else 0.5)
        return out
    first = cands[0]
    if pick > 0 and len(alive) > 1 and first in alive:
        lead = max(alive, key=lambda x: tot[x] / n[x])
        if lead != first:
            d = [x - y for x, y in zip(rewards[lead], rewards[first], strict=True)]
            mean = sum(d) / len(d)
            var = sum((x - mean) ** 2 for x in d) / max(1, len(d) - 1)
            if mean <= pick * math.sqrt(var / len(d)):
                return {first: (n[first], tot[first])}
    for a in cands:
        if n[a] == 0:
            continue
        out[a] = (n[a], tot[a])
    if not out:
        out[cands[0]] = (1, 0.5)
    return out


_POOL: ProcessPoolExecutor | None = None
_POOL_FAILED = False


def _pool() -> ProcessPoolExecutor | None:
    """One helper process for ``workers=2`` (created on first use; a fresh process, not a
    fork, so it holds none of this process's files or threads, and it exits with it)."""
    global _POOL, _POOL_FAILED
    if _POOL is None and not _POOL_FAILED:
        try:
            _POOL = process_pool(1)
            atexit.register(_POOL.shutdown, wait=False, cancel_futures=True)
        except (OSError, ValueError, AssertionError):
            _POOL_FAILED = True
    return _POOL


class MCTSBot(Bot):
    """Information-set MCTS with greedy rollouts (see the module contract)."""

    name = "mcts"
    searches = True

    def __init__(self, seed: int = 0, time: float = 1.0, iterations: int = 0,
                 workers: int = 1, c: float = 0.7, depth: int = 2, width: int = 6,
                 share: float = 0.9, reuse: int = 1, hv: int = 2, race: int = 1,
                 z: float = 2.0, end: int = 0, scale: float = SCALE,
                 diverse: int = 1, exact: int = 0, pick: float = 0.0,
                 cover: int = 1, rival: int = 0, net: str = "") -> None:
        super().__init__(seed)
        if time <= 0 and iterations <= 0:
            raise ValueError("time or iterations must be positive")
        if workers not in (1, 2):
            raise ValueError("workers must be 1 or 2")
        if c < 0 or depth < 1 or iterations < 0:
            raise ValueError("c must be >= 0, depth >= 1, iterations >= 0")
        self.time = float(time)
        self.iterations = int(iterations)
        self.workers = int(workers)
        self.c = float(c)
        self.depth = int(depth)
        self.width = max(1, int(width))
        if not 0 < share <= 1:
            raise ValueError("share must be in (0, 1]")
        self.share = float(share)
        self.reuse = int(reuse)
        self.hv = int(hv)
        self.race = int(race)
        self.z = float(z)
        self.end = int(end)
        if scale <= 0:
            raise ValueError("scale must be positive")
        self.scale = float(scale)
        self.diverse = int(diverse)
        self.exact = int(exact)
        self.pick = float(pick)
        self.cover = int(cover)
        if rival not in (0, 1):
            raise ValueError("rival must be 0 (the best rival) or 1 (the rivals' mean)")
        self.rival = int(rival)
        #: A network file for ``hv`` 5 and 6 instead of the shipped weights (read now, so
        #: a file that is no network is refused here, in one line).
        self.net = str(net)
        if self.net:
            shipped_net(self.net)
        self._carry: Node | None = None
        self._turn = -1
        self._spent = 0.0
        self.last_iterations = 0
        #: The root statistics of the last decision searched (action: visits, summed
        #: reward in [0, 1]); empty after a forced choice. For a coach's reasons.
        self.last_stats: dict[Action, tuple[int, float]] = {}

    def _seconds(self, view: PlayerView) -> float:
        """This decision's share of the turn budget."""
        self._new_turn(view)
        left = max(0.0, self.time - self._spent)
        pend = view.pending
        first = pend is not None and pend.kind in ("turn", "mulligan")
        return left * (self.share if first else 0.5)

    def _new_turn(self, view: PlayerView) -> None:
        if view.turn != self._turn:
            self._turn = view.turn
            self._spent = 0.0
            self._carry = None

    def choose(self, view: PlayerView, budget: Budget | None = None) -> Action:
        legal = view.legal_actions
        if not legal:
            raise ValueError(f"player {view.player + 1} has no decision to make")
        kind = view.pending.kind if view.pending is not None else ""
        self._new_turn(view)
        self.last_stats = {}
        if len(legal) == 1:
            return legal[0]
        start = time.monotonic()
        iterations = self.iterations
        seconds: float | None = None
        exact = self.exact
        if budget is not None and (budget.seconds is not None or budget.iterations):
            iterations = budget.iterations or 0
            seconds = budget.seconds
            if not iterations and (seconds or 0.0) < EXACT_MIN_TIME:
                exact = 0
        elif iterations <= 0:
            seconds = self._seconds(view)
            if self.time < EXACT_MIN_TIME:
                exact = 0
        deadline = None if seconds is None else start + seconds
        seed = self.rng.randrange(1 << 30)
        carry = self._carry if self.reuse else None
        if kind in ("turn", "mulligan"):
            carry = None
        stats, root = self._run(view, deadline, iterations, seed, carry, exact)
        self.last_stats = stats
        order = {a: i for i, a in enumerate(ranked_view_actions(view, len(legal)))}
        best = max(legal, key=lambda a: (stats.get(a, (0, 0.0))[0],
                                         stats.get(a, (0, 0.0))[1], -order.get(a, 99)))
        self._carry = root.children.get(best)
        if view.turn == self._turn:
            self._spent += time.monotonic() - start
        return best

    def _run(self, view: PlayerView, deadline: float | None, iterations: int,
             seed: int, carry: Node | None = None, exact: int = 0
             ) -> tuple[dict[Action, tuple[int, float]], Node]:
        helper: Future[dict[Action, tuple[int, float]]] | None = None
        # The race's options after the seed, the same for this search and the helper's.
        opts = (self.depth, self.width, self.hv, self.z, self.end, self.scale,
                self.diverse, exact, self.pick, self.cover, self.rival, self.net)
        if self.workers == 2:
            pool = _pool()
            if pool is not None:
                if self.race:
                    helper = pool.submit(race, view, deadline, iterations, seed + 1, *opts)
                else:
                    helper = pool.submit(search, view, deadline, iterations,
                                         seed + 1, self.c, self.depth, self.width, self.hv,
                                         None, self.end)
        if self.race:
            stats = race(view, deadline, iterations, seed, *opts)
            root = Node()
        else:
            stats, root = search_tree(view, deadline, iterations, seed, self.c,
                                      self.depth, self.width, self.hv, carry, self.end)
        self.last_iterations = sum(v for v, _ in stats.values())
        if helper is not None:
            try:
                wait = None if deadline is None else max(0.0, deadline - time.monotonic()) + 0.05
                more = helper.result(timeout=wait)
            except Exception:  # noqa: BLE001 - a failed helper only loses its statistics
                helper.cancel()
                more = {}
            merged = dict(stats)
            for a, (v, t) in more.items():
                v0, t0 = merged.get(a, (0, 0.0))
                merged[a] = (v0 + v, t0 + t)
            stats = merged
        return stats, root
