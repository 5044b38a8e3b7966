"""The ``learn`` sub-commands: self-play data and the training of the learned evaluation.

Contract:

- ``forest-shuffle learn generate --out DATA.npz [--seed S] [--games G] [--players 2,3,4,5]
  [--rate R] [--game ID] [--workers W | --ray ADDRESS] [--fast-only] [--explore E]
  [--continuations K]`` plays
  the self-play plan of :func:`forest_shuffle.bots.selfplay.plan` (per player count: G games
  of fast-greedy self-play, 17 % of G of exact greedy, 3 % of a cheap search against greedy,
  paired deals with seats rotated; with ``--explore E`` also G games of the fast greedy
  deviating at a share E of its turn decisions), records the mover's view features at a
  share R of the turn decisions with the final margin and win share (``--continuations
  K``: their means over K games played on by the fast greedy from states resampled from
  the mover's view), and writes them (``--fast-only``: the fast-greedy games alone). Same
  seed and options, same data.
- ``forest-shuffle learn train --data DATA.npz --out NET.npz [--seed S] [--epochs E]
  [--hidden H] [--layers L] [--weight-decay D] [--no-skip]`` trains the value network with
  PyTorch (extra ``learn``) and writes the weights the ``learned`` bot reads with numpy
  (``bots/data/value.npz`` is the shipped one); prints the held-out figures.
- ``forest-shuffle learn run --out NET.npz [--data DATA.npz]`` with the options of both:
  ``generate`` into DATA (default: NET's name with ``-data``), then ``train`` on it, from
  the one seed; PyTorch is checked before the self-play starts.

- ``forest-shuffle learn rl --out POLICY.npz [--game ID] [--players N] [--opponents SPEC]
  [--games G] [--hidden H] [--lr L] [--batch B] [--seed S] [--eval K] [--start FILE]
  [--half] [--save-every N] [--algo reinforce|maskable-ppo] [--steps T]``
  trains a policy for the bot ``policy:FILE`` against fixed bots, by default by policy
  gradient (:mod:`forest_shuffle.rl.train`; numpy only, extra ``rl``; ``--save-every N``
  also writes the file every N games), with ``--algo maskable-ppo`` by sb3-contrib's
  MaskablePPO for T learner steps (:mod:`forest_shuffle.rl.ppo`; extra ``rl-train``,
  PyTorch: without it one line, exit 2), writes it and, with ``--eval K``, prints its win
  share over K games against random and greedy.

Each shows a progress bar on standard error when it is a terminal. Bad input (a player count
outside 2-5, a folder that does not exist, a file that is no data, no PyTorch, ``--ray``
without Ray): one line on standard error, exit status 2, nothing written.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, NoReturn

import typer
from rich.console import Console

from forest_shuffle.cli.commands.options import (
    GameOption,
    RayOption,
    executor_from_option,
    game_from_option,
    with_progress,
)
from forest_shuffle.cli.words import _, ngettext
from forest_shuffle.engine.check import printable
from forest_shuffle.games import BASE_ID

__all__ = ["register"]

learn_app = typer.Typer(name="learn", help="Self-play data and training of the learned bot.",
                        no_args_is_help=True)

#: The options ``generate``, ``train`` and ``run`` share.
GamesOption = Annotated[int, typer.Option(
    "--games", "-g", help="Fast-greedy games per player count (the others in share).")]
PlayersOption = Annotated[str, typer.Option("--players", "-p", help="Player counts.")]
RateOption = Annotated[float, typer.Option("--rate",
                                           help="Share of the turn decisions recorded.")]
WorkersOption = Annotated[int, typer.Option(
    "--workers", "-w", help="Worker processes playing games in parallel.")]
EpochsOption = Annotated[int, typer.Option("--epochs", "-e", help="Passes over the data.")]
HiddenOption = Annotated[int, typer.Option("--hidden", help="Units per hidden layer.")]
LayersOption = Annotated[int, typer.Option("--layers", help="Hidden layers.")]
DecayOption = Annotated[float, typer.Option(
    "--weight-decay", help="AdamW weight decay (less over-confident win odds).")]
ExploreOption = Annotated[float, typer.Option(
    "--explore", help="Also as many games of the fast greedy deviating at this share of its "
                      "turn decisions (0: none).")]
ContinuationsOption = Annotated[int, typer.Option(
    "--continuations", help="Targets: the mean outcome of this many fast-greedy games "
                            "played on from each position, hidden cards resampled (0: the "
                            "game's own outcome).")]
SkipOption = Annotated[bool, typer.Option(
    "--skip/--no-skip", help="A linear path from the inputs to the outputs beside the "
                             "hidden layers.")]


def _refuse(message: str) -> NoReturn:
    typer.echo(message, err=True)
    raise typer.Exit(2)


def _players(text: str) -> list[int]:
    try:
        counts = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        _refuse(_("--players must be numbers from 2 to 5, comma-separated, not {text}",
                   text=repr(text)))
    if not counts or any(not 2 <= n <= 5 for n in counts):
        _refuse(_("--players must be numbers from 2 to 5, comma-separated, not {text}",
                   text=repr(text)))
    return sorted(set(counts))


def _out(path: Path, option: str = "--out") -> None:
    if not path.parent.is_dir():
        _refuse(_("{option}: the folder {folder} does not exist", option=option,
                   folder=repr(str(path.parent))))
    if path.is_dir():
        _refuse(_("{option}: {path} is a folder", option=option, path=repr(str(path))))


@learn_app.command("generate")
def generate_command(
    out: Annotated[Path, typer.Option("--out", "-o", help="The data file to write (.npz).",
                                      show_default=False)],
    seed: Annotated[int, typer.Option("--seed", "-s", help="Seed of the data.")] = 2026,
    games: GamesOption = 300,
    players: PlayersOption = "2,3,4,5",
    rate: RateOption = 0.25,
    game: GameOption = BASE_ID,
    workers: WorkersOption = 1,
    ray: RayOption = None,
    fast_only: Annotated[bool, typer.Option(
        "--fast-only", help="Only fast-greedy self-play (a quick smoke run).")] = False,
    explore: ExploreOption = 0.0,
    continuations: ContinuationsOption = 0,
) -> None:
    """Play self-play games and record positions from the mover's view."""
    game_from_option(game)
    _check_generate(games, rate, workers, explore, continuations)
    _out(out)
    _generate(out, seed, games, _players(players), rate, game, workers, ray, fast_only,
              explore, continuations)


def _check_generate(games: int, rate: float, workers: int, explore: float,
                    continuations: int) -> None:
    if games < 1:
        _refuse(_("--games must be at least 1, not {games}", games=games))
    if not 0 < rate <= 1:
        _refuse(_("--rate must be above 0 and at most 1, not {rate}", rate=rate))
    if workers < 1:
        _refuse(_("--workers must be at least 1, not {workers}", workers=workers))
    if not 0 <= explore <= 1:
        _refuse(_("--explore must be from 0 to 1, not {explore}", explore=explore))
    if not 0 <= continuations <= 1000:
        _refuse(_("--continuations must be from 0 to 1000, not {continuations}",
                   continuations=continuations))


def _generate(out: Path, seed: int, games: int, counts: list[int], rate: float, game: str,
              workers: int, ray: str | None, fast_only: bool, explore: float,
              continuations: int) -> None:
    """Play the self-play plan and write its data to ``out`` (the options checked)."""
    from forest_shuffle.bots.selfplay import DEFAULT_LINEUPS, generate, plan

    gdef = game_from_option(game)
    executor = executor_from_option(ray)
    lineups = ((1.0, ("greedy:exact=0",)),) if fast_only else DEFAULT_LINEUPS
    if explore > 0:
        lineups = (*lineups, (1.0, (f"greedy:exact=0,explore={explore:g}",)))
    jobs = plan(seed, games, counts, lineups, rate=rate, game=gdef.id,
                continuations=continuations)
    data = with_progress("self-play", len(jobs), False, lambda report: generate(
        jobs, workers, report, executor))
    data.meta.update({"seed": seed, "games": len(jobs), "players": counts, "rate": rate,
                      "game": gdef.id, "explore": explore, "continuations": continuations})
    data.save(str(out))
    Console().print(ngettext("{games} games, {positions} positions (seed {seed}) -> {out}",
                              "{games} games, {positions} positions (seed {seed}) -> {out}",
                              len(jobs), games=len(jobs), positions=len(data), seed=seed,
                              out=out))


@learn_app.command("train")
def train_command(
    data: Annotated[Path, typer.Option("--data", "-d", help="Self-play data (.npz).",
                                       show_default=False)],
    out: Annotated[Path, typer.Option("--out", "-o", help="The weights to write (.npz).",
                                      show_default=False)],
    seed: Annotated[int, typer.Option("--seed", "-s", help="Seed of the training.")] = 0,
    epochs: EpochsOption = 30,
    hidden: HiddenOption = 64,
    layers: LayersOption = 2,
    weight_decay: DecayOption = 1e-3,
    skip: SkipOption = True,
) -> None:
    """Train the value network on self-play data (needs PyTorch: extra 'learn')."""
    _check_train(epochs, hidden, layers, weight_decay)
    if not data.is_file():
        _refuse(_("--data: no file {file}", file=repr(str(data))))
    _out(out)
    _need_torch()
    _train(data, out, seed, epochs, hidden, layers, weight_decay, skip)


def _check_train(epochs: int, hidden: int, layers: int, weight_decay: float) -> None:
    if epochs < 1 or hidden < 1 or not 1 <= layers <= 4:
        _refuse(_("--epochs and --hidden must be at least 1, --layers from 1 to 4"))
    if not 0 <= weight_decay < 1:
        _refuse(_("--weight-decay must be at least 0 and below 1, not {value}",
                   value=weight_decay))


def _need_torch() -> None:
    try:
        import torch  # noqa: F401 - only to refuse early without it
    except ImportError:
        _refuse(_("training needs PyTorch: pip install 'forest-shuffle[learn]'"))


def _train(data: Path, out: Path, seed: int, epochs: int, hidden: int, layers: int,
           weight_decay: float, skip: bool) -> None:
    """Train on the data file ``data`` and write the weights to ``out`` (options checked)."""
    from forest_shuffle.bots.selfplay import load_dataset
    from forest_shuffle.bots.train import TrainingUnavailable, train

    try:
        ds = load_dataset(str(data))
        result = with_progress("training", epochs, False, lambda report: train(
            ds, seed, epochs, hidden, layers, progress=report, skip=skip,
            weight_decay=weight_decay))
    except (ValueError, TrainingUnavailable) as exc:
        _refuse(str(exc))
    result.meta["data"] = data.name
    result.save(str(out))
    f = result.figures
    Console().print(_(
        "{positions} positions ({held_out} held out): margin RMSE {rmse} points (R2 {r2}), "
        "winner right {right} (current leader: {leader}) -> {out}",
        positions=int(f["positions"]), held_out=int(f["held_out"]),
        rmse=f"{f['margin_rmse_points']:.1f}", r2=f"{f['margin_r2']:.2f}",
        right=f"{f['win_accuracy']:.1%}", leader=f"{f['win_accuracy_of_current_margin']:.1%}",
        out=out))


@learn_app.command("run")
def run_command(
    out: Annotated[Path, typer.Option("--out", "-o", help="The weights to write (.npz).",
                                      show_default=False)],
    data: Annotated[Path | None, typer.Option(
        "--data", "-d", help="Where the self-play data goes (default: OUT's name with "
                             "-data before .npz).", show_default=False)] = None,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Seed of the data and the "
                                                          "training.")] = 2026,
    games: GamesOption = 300,
    players: PlayersOption = "2,3,4,5",
    rate: RateOption = 0.25,
    game: GameOption = BASE_ID,
    workers: WorkersOption = 1,
    ray: RayOption = None,
    epochs: EpochsOption = 30,
    hidden: HiddenOption = 64,
    layers: LayersOption = 2,
    weight_decay: DecayOption = 1e-3,
    skip: SkipOption = True,
    explore: ExploreOption = 0.0,
    continuations: ContinuationsOption = 0,
) -> None:
    """Self-play data, then the network trained on it, in one go (needs PyTorch)."""
    game_from_option(game)
    counts = _players(players)
    _check_generate(games, rate, workers, explore, continuations)
    _check_train(epochs, hidden, layers, weight_decay)
    _out(out)
    if data is None:
        data = out.with_name(f"{out.stem}-data.npz")
    _out(data, "--data")
    if data.resolve() == out.resolve():
        _refuse(_("--data and --out must be two files"))
    _need_torch()  # before hours of self-play, not after
    _generate(data, seed, games, counts, rate, game, workers, ray, False, explore,
              continuations)
    _train(data, out, seed, epochs, hidden, layers, weight_decay, skip)


@learn_app.command("rl")
def rl_command(
    out: Annotated[Path, typer.Option("--out", "-o", help="The policy to write (.npz).",
                                      show_default=False)],
    game: GameOption = BASE_ID,
    players: Annotated[int, typer.Option("--players", "-p", help="Players.")] = 2,
    opponents: Annotated[str, typer.Option(
        "--opponents", help="The bot in the other seats.")] = "random",
    games: Annotated[int, typer.Option("--games", "-g", help="Training games.")] = 3000,
    hidden: HiddenOption = 64,
    lr: Annotated[float, typer.Option("--lr", help="Adam's step size.")] = 3e-3,
    batch: Annotated[int, typer.Option("--batch", help="Games per update.")] = 16,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Seed of the run.")] = 0,
    evaluate_games: Annotated[int, typer.Option(
        "--eval", help="Then games against random and greedy (0: none).")] = 0,
    start: Annotated[Path | None, typer.Option(
        "--start", help="Go on training this policy file.")] = None,
    half: Annotated[bool, typer.Option(
        "--half", help="Write the weights as float16 (half the file).")] = False,
    save_every: Annotated[int, typer.Option(
        "--save-every", help="Also write --out every this many games (0: only at the end).")
    ] = 0,
    algo: Annotated[str, typer.Option(
        "--algo", help="reinforce (numpy) or maskable-ppo (sb3-contrib, PyTorch).")
    ] = "reinforce",
    steps: Annotated[int, typer.Option(
        "--steps", help="maskable-ppo: learner steps to train.")] = 20_000,
) -> None:
    """Train a policy by policy gradient against fixed bots (numpy; the bot policy:FILE)."""
    gdef = game_from_option(game)
    if players not in gdef.players:
        _refuse(_("--players must be one of {counts} for {game}, not {players}",
                   counts=list(gdef.players), game=gdef.id, players=players))
    if (games < 1 or hidden < 1 or batch < 1 or evaluate_games < 0 or save_every < 0
            or steps < 1 or not 0 < lr < 1):
        _refuse(_("--games, --steps, --hidden and --batch must be at least 1, --eval and "
                  "--save-every at least 0 and --lr between 0 and 1"))
    if algo not in ("reinforce", "maskable-ppo"):
        _refuse(_("--algo is reinforce or maskable-ppo, not {algo}", algo=repr(printable(algo))))
    _out(out)
    try:
        from forest_shuffle.bots import BotSpecError, make_bot
        from forest_shuffle.rl.policy import Policy, PolicyFileError
        from forest_shuffle.rl.train import evaluate, train_policy
    except ImportError as exc:
        _refuse(_("training a policy needs the rl extra ({module}): "
                  "pip install 'forest-shuffle[rl]'", module=exc.name))
    try:
        make_bot(opponents, 0)
        first = None if start is None else Policy.load(start)

        def keep(policy: Policy, _done: int) -> None:
            policy.save(out, half=half)

        if algo == "maskable-ppo":
            from forest_shuffle.rl.ppo import PPOUnavailable, train_maskable_ppo
            try:
                pol = with_progress("training", steps, False, lambda progress:
                                    train_maskable_ppo(gdef.id, players, opponents, steps,
                                                       hidden, seed=seed, start=first,
                                                       progress=progress))
            except PPOUnavailable as exc:
                _refuse(str(exc))
            said = ngettext("{n} learner steps of MaskablePPO",
                            "{n} learner steps of MaskablePPO", steps, n=steps)
        else:
            pol, report = with_progress("training", games, False, lambda progress:
                                        train_policy(gdef.id, players, opponents, games,
                                                     hidden, lr, batch, seed=seed,
                                                     start=first, progress=progress,
                                                     checkpoint=keep, every=save_every))
            said = ngettext("{n} games, won {share} while learning",
                            "{n} games, won {share} while learning", report.games,
                            n=report.games, share=f"{report.wins / report.games:.1%}")
    except (BotSpecError, PolicyFileError, ValueError) as exc:
        _refuse(str(exc))
    pol.save(out, half=half)
    Console().print(f"{said} -> {out}")
    for opponent in ("random", "greedy") if evaluate_games else ():
        share, margin = with_progress(f"against {opponent}", 1, False,
                                      lambda _p, o=opponent: evaluate(  # type: ignore[misc]
                                          pol, o, evaluate_games, players, seed + 1))
        Console().print(ngettext(
            "against {opponent}: won {share} of {n} games, margin {margin}",
            "against {opponent}: won {share} of {n} games, margin {margin}", evaluate_games,
            opponent=opponent, share=f"{share:.1%}", n=evaluate_games,
            margin=f"{margin:+.1f}"))


def register(app: typer.Typer) -> None:
    """Add the ``learn`` sub-commands to ``app``."""
    app.add_typer(learn_app, name="learn")
