"""The shapes of the coach's answers (Suggest, the review, replay frames) for the OpenAPI
page. Documentation only, like :mod:`forest_shuffle.server.schemas`: the routes send the
dicts of :mod:`forest_shuffle.server.coach` as they are; these models describe them."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field


class Suggestion(BaseModel):
    """``POST /api/games/{id}/suggest``: what the hard bot would do in the seat's place."""

    version: int = Field(description="the game's version it answers")
    seat: int
    action: str = Field(examples=["play 71 left 3"], description="the action's text form")
    kind: str
    card: int | None
    side: str | None
    tree: int | None = Field(description="the tree number of a play on a tree (as in the text)")
    payment: list[int] = Field(description="the cards it would pay with, in its order")
    actions: list[str] = Field(description="the texts the page sends to make the move: the "
                                           "action, then its payment in ascending order")
    words: str = Field(description="the advice and its reason in words")
    action_words: str | None
    bonus: str | None = Field(description="the bonus at stake in the payment, in words")
    bonus_kept: bool | None
    lead: float | None = Field(description="points the search expects the move to leave "
                                           "the seat ahead of the best rival")
    margin: float | None = Field(description="points it expects over the next best move")
    runner_up: str | None
    samples: int
    bot: str


class TurnPoints(BaseModel):
    turn: int = Field(description="the engine's turn (every seat's counted)")
    step: int = Field(description="actions applied")
    totals: list[int] = Field(description="each seat's points then (public forests)")


class SpeciesPoints(BaseModel):
    name: str
    points: int
    cards: int


class FinalPoints(BaseModel):
    seat: int
    total: int
    lines: dict[str, int]
    species: list[SpeciesPoints]


class ReviewedMove(BaseModel):
    seat: int
    name: str
    turn: int
    own_turn: int = Field(description="the seat's own turn number")
    step: int = Field(description="the index of the move in the game's actions")
    played: str
    played_words: str
    chosen: str = Field(description="what the bot would have done")
    chosen_words: str
    played_points: float | None
    chosen_points: float | None
    gain: float = Field(description="the points more the bot expected from its choice")


class Review(BaseModel):
    """``GET /api/games/{id}/review``, once the game is over."""

    game_id: str
    game: str
    game_title: str
    names: list[str]
    lines: list[str]
    turns: list[TurnPoints]
    final: list[FinalPoints]
    moves: list[ReviewedMove]
    checked: int = Field(description="decisions the bot looked at again")
    bot: str


class ReplayFrame(BaseModel):
    """A replay after ``step`` actions, from one seat's view or a spectator's."""

    source: str = Field(description="game (of this server) or record (a file)")
    game_id: str | None = None
    replay_id: str | None = None
    game: str
    game_title: str
    players: int
    names: list[str]
    steps: int
    step: int
    seat: int | None
    view: dict[str, Any]
    to_move: int | None
    decision: str | None
    over: bool
    turn: int
    move: list[dict[str, Any]] = Field(description="the log lines of the move just made")
    log: list[dict[str, Any]] = Field(description="the log to this step, in the viewer's words")
    running: list[dict[str, Any]] = Field(description="the score pad at this step")
    action: str | None = Field(description="the move's text, for its own seat only")
