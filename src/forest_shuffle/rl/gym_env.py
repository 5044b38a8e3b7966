"""Forest Shuffle as a Gymnasium environment against fixed bots, and a batch of games.

Contract:

- :class:`ForestShuffleEnv` (registered as ``forest_shuffle/ForestShuffle-v0`` when
  :mod:`forest_shuffle.rl` is imported): one learner in seat ``seat`` (0 by default)
  against ``opponents`` (a bot specification of :mod:`forest_shuffle.bots.registry` for
  every other seat, or a list of one per other seat, in seat order). Observations are the
  compact observation of the learner (:mod:`forest_shuffle.rl.compact_obs`), actions the
  compact ids (:mod:`forest_shuffle.rl.compact`; ``Discrete(NUM_COMPACT)``): a half play is
  two steps, the half then its host. :meth:`~ForestShuffleEnv.action_masks` (the name
  sb3-contrib's MaskablePPO calls) gives the legal ids as a bool array (``info`` is empty
  but for ``illegal``: a mask there would cost every step whether read or not).
- ``step`` applies the learner's action, then lets the opponents play until the learner
  decides again or the game ends. Rewards, chosen with ``reward=``: ``"win"`` (default) 1
  at the end for a top total (a tie shares the win), else 0; ``"margin"`` the own total
  minus the best other total, at the end; ``"score"`` after every step the change of the
  own total as the scorer counts the table now (the sum over a game is the final total).
- An id that is not legal (``action_masks()`` false) ends the episode with reward -1 and
  ``info["illegal"]`` True, the game unchanged (``illegal="raise"``: ActionEncodingError
  instead). No move is made for the learner, a forced one included.
- ``reset(seed=s)`` seeds the environment's generator (Gymnasium's ``np_random``), from
  which each game's deal and the opponents' seeds are drawn: the same seed, the same games.
- ``render_mode`` ``"ansi"`` returns the learner's view in words, ``"human"`` writes them.
- :class:`BatchEnv` steps N such games at once with numpy arrays in and out (observations
  ``float32[N, size]``, masks ``int8[N, NUM_COMPACT]``, rewards, terminations), starting a
  new game in a slot whose game ended (its final observation in the returned ``final``).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt

from forest_shuffle.bots.base import Bot, RandomBot
from forest_shuffle.bots.registry import make_bot
from forest_shuffle.engine.actions import Action
from forest_shuffle.engine.game import canonical_id, game_by_id
from forest_shuffle.engine.state import GameState
from forest_shuffle.rl.actions import ActionEncodingError
from forest_shuffle.rl.compact import NUM_COMPACT, CompactDecision, half_of
from forest_shuffle.rl.compact_obs import Encoder, layout
from forest_shuffle.rl.pettingzoo_env import view_words
from forest_shuffle.rl.rewards import final_rewards

ENV_ID = "forest_shuffle/ForestShuffle-v0"
#: Reward kinds of the Gymnasium environment.
GYM_REWARDS = ("win", "margin", "score")

Obs = npt.NDArray[np.float32]


def _specs(opponents: str | Sequence[str], others: int) -> list[str]:
    if isinstance(opponents, str):
        return [opponents] * others
    specs = list(opponents)
    if len(specs) != others:
        raise ValueError(f"opponents names {len(specs)} bots for {others} other seats")
    return specs


class ForestShuffleEnv(gymnasium.Env[Obs, np.int64]):
    """One learner against fixed bots (see the module contract)."""

    metadata = {"render_modes": ["ansi", "human"]}

    def __init__(self, game: str = "base", players: int = 2,
                 opponents: str | Sequence[str] = "random", seat: int = 0,
                 reward: str = "win", illegal: str = "end",
                 render_mode: str | None = None) -> None:
        gid = canonical_id(game)
        g = game_by_id(gid)
        if players not in g.players:
            raise ValueError(f"{gid} is for {g.players} players, not {players}")
        if not 0 <= seat < players:
            raise ValueError(f"seat is 0..{players - 1}, not {seat}")
        if reward not in GYM_REWARDS:
            raise ValueError(f"reward is one of {GYM_REWARDS}, not {reward!r}")
        if illegal not in ("end", "raise"):
            raise ValueError(f"illegal is 'end' or 'raise', not {illegal!r}")
        if render_mode not in (None, "ansi", "human"):
            raise ValueError(f"render_mode is None, 'ansi' or 'human', not {render_mode!r}")
        self.game_id, self.players, self.seat = gid, players, seat
        self.reward_kind, self.illegal, self.render_mode = reward, illegal, render_mode
        self.specs = _specs(opponents, players - 1)
        for spec in self.specs:
            make_bot(spec, 0)  # a bad specification fails here (BotSpecError)
        self.size = layout(g).size
        self._encoder = Encoder(g)
        self.observation_space = gymnasium.spaces.Box(0.0, np.inf, (self.size,), np.float32)
        self.action_space = gymnasium.spaces.Discrete(NUM_COMPACT)
        self.state = GameState.new(players, 0, game=gid)
        self.bots: list[Bot | None] = [None] * players
        self._decision: CompactDecision | None = None
        self._last_total = 0
        self._ended = False

    # ------------------------------------------------------------ Gymnasium API

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[Obs, dict[str, Any]]:
        super().reset(seed=seed)
        rng = self.np_random
        self.state = GameState.new(self.players, int(rng.integers(2**63)), game=self.game_id)
        others = [p for p in range(self.players) if p != self.seat]
        self.bots = [None] * self.players
        for p, spec in zip(others, self.specs, strict=True):
            self.bots[p] = make_bot(spec, int(rng.integers(2**63)))
        self._ended = False
        self._play_others()
        self._last_total = self._total() if self.reward_kind == "score" else 0
        return self._observe(), self._info()

    def step(self, action: np.int64 | int) -> tuple[Obs, float, bool, bool,
                                                    dict[str, Any]]:
        if self._ended or self.state.over:
            raise RuntimeError("the episode has ended: call reset()")
        d = self._current()
        try:
            chosen = d.choose(int(action))
        except ActionEncodingError:
            if self.illegal == "raise":
                raise
            self._ended = True
            info = self._info()
            info["illegal"] = True
            return self._observe(), -1.0, True, False, info
        if chosen is None:  # a half: the host is the next step
            return self._observe(), 0.0, False, False, self._info()
        self.state.apply_legal(chosen)
        self._decision = None
        self._play_others()
        return self._observe(), self._reward(), self.state.over, False, self._info()

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal ids now, as bools (all false once the game is over)."""
        if self.state.over or self._ended:
            return np.zeros(NUM_COMPACT, np.bool_)
        return self._current().mask().view(np.bool_)

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode (use 'ansi')")
            return None
        text = view_words(self.state.view(self.seat))
        if self.render_mode == "human":
            sys.stdout.write(text + "\n")
            return None
        return text

    # ------------------------------------------------------------ internals

    def _current(self) -> CompactDecision:
        d = self._decision
        if d is None:
            d = self._decision = CompactDecision(self.state.legal_actions())
        return d

    def _play_others(self) -> None:
        """Let the bots play until the learner decides or the game is over."""
        s = self.state
        bots = self.bots
        while not s.over:
            p = s.to_move
            if p == self.seat or p is None:
                break
            bot = bots[p]
            assert bot is not None
            if type(bot) is RandomBot:  # its choice, without building the view
                legal = s.legal_actions()
                a: Action = legal[bot.rng.randrange(len(legal))]
                s.apply_legal(a)
            else:
                s.apply(bot.choose(s.view(p)))
        self._decision = None

    def _observe(self) -> Obs:
        d = self._decision
        chosen = half_of(d.half) if d is not None and d.half is not None else None
        return self._encoder.state(self.state, self.seat, chosen)

    def _info(self) -> dict[str, Any]:
        return {}

    def _total(self) -> int:
        return self.state.scores()[self.seat]

    def _reward(self) -> float:
        kind = self.reward_kind
        if kind == "score":
            now = self._total()
            change = now - self._last_total
            self._last_total = now
            return float(change)
        if not self.state.over:
            return 0.0
        return final_rewards(self.state, kind)[self.seat]


class BatchEnv:
    """N games against fixed bots stepped together, numpy in and out (module contract).

    ``reset()`` returns ``(obs, masks)``; ``step(actions)`` returns ``(obs, masks,
    rewards, terminated, final)``: a slot whose game ended (or whose action was illegal)
    gets its reward and ``terminated`` True, ``final[i]`` its last observation, and a new
    game already in ``obs``/``masks``. The arrays are the batch's own, overwritten by the
    next call (copy what you keep)."""

    def __init__(self, n: int, game: str = "base", players: int = 2,
                 opponents: str | Sequence[str] = "random", seat: int = 0,
                 reward: str = "win", seed: int | None = None) -> None:
        if n < 1:
            raise ValueError(f"a batch has at least one game, not {n}")
        self.envs = [ForestShuffleEnv(game, players, opponents, seat, reward) for _ in range(n)]
        self.size = self.envs[0].size
        self.obs = np.zeros((n, self.size), np.float32)
        self.masks = np.zeros((n, NUM_COMPACT), np.int8)
        self.final = np.zeros((n, self.size), np.float32)
        self.rewards = np.zeros(n, np.float32)
        self.terminated = np.zeros(n, np.bool_)
        self._seed = seed

    def reset(self, seed: int | None = None) -> tuple[Obs, npt.NDArray[np.int8]]:
        """Deal a new game in every slot (slot i seeded with ``seed + i`` if given)."""
        seed = self._seed if seed is None else seed
        for i, e in enumerate(self.envs):
            obs, _info = e.reset(seed=None if seed is None else seed + i)
            self.obs[i] = obs
            e._current().mask(self.masks[i])
        return self.obs, self.masks

    def step(self, actions: npt.ArrayLike) -> tuple[Obs, npt.NDArray[np.int8], Obs,
                                                    npt.NDArray[np.bool_], Obs]:
        """Step every slot with its action id (the learner's compact id)."""
        ids = np.asarray(actions, np.int64).reshape(-1)
        if ids.shape[0] != len(self.envs):
            raise ValueError(f"{ids.shape[0]} actions for {len(self.envs)} games")
        obs, masks, rewards, term = self.obs, self.masks, self.rewards, self.terminated
        for i, e in enumerate(self.envs):
            o, r, done, _trunc, _info = e.step(int(ids[i]))
            rewards[i] = r
            term[i] = done
            if done:
                self.final[i] = o
                o, _ = e.reset()
            obs[i] = o
            e._current().mask(masks[i])
        return obs, masks, rewards, term, self.final
