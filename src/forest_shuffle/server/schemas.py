"""The shapes of the JSON API for its OpenAPI page (``/docs``).

Contract: documentation only. The routes build their answers as plain dicts and send them
as they are (no validation on the way out); these models describe those dicts and must
match :mod:`forest_shuffle.server.service`. ``docs/web.md`` is the reference in words.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from forest_shuffle.server.solo_schemas import SoloPart


class ErrorOut(BaseModel):
    """Every refusal: one line, with status 400, 403, 404 or 409."""

    error: str = Field(examples=["stale: the game is at version 12, the action was sent "
                                 "against version 11"])


class Level(BaseModel):
    level: str = Field(examples=["medium"])
    spec: str = Field(examples=["greedy"], description="the bot specification it stands for")
    words: str = Field(examples=["medium (greedy)"], description="how the lobby shows it")


class CreatedSeat(BaseModel):
    seat: int
    kind: str = Field(description="human or bot")
    name: str
    level: str | None = Field(description="the bot's level; null for a human")
    token: str | None = Field(description="the seat's secret: every person's in hot-seat, "
                                          "only the creator's in an invite game (null for "
                                          "bots and invited seats)")
    link: str | None = Field(description="the seat's page /game/{id}?token=..., or an "
                                         "invited seat's claim link /game/{id}?invite=...")
    invite: str | None = Field(default=None, description="an invited seat's claim code "
                                                         "(claimed once; only in the "
                                                         "creator's answer)")


class Created(BaseModel):
    """A new game (``POST /api/games``, ``POST .../rematch``)."""

    game_id: str
    spectate: str = Field(description="the spectator link /game/{id}")
    hotseat: bool
    seats: list[CreatedSeat]


class RematchSeat(BaseModel):
    """The caller's seat in the rematch of a game."""

    game_id: str
    seat: int
    token: str
    link: str


class Invite(BaseModel):
    """A seat's new invite, re-issued by the game's creator."""

    game_id: str
    seat: int
    invite: str = Field(description="the claim code (POST /api/games/{id}/claim)")
    link: str = Field(description="the claim link /game/{id}?invite=...")


class SeatInfo(BaseModel):
    seat: int
    name: str
    kind: str
    level: str | None
    connected: bool = Field(description="a socket of this seat is open (bots: always)")
    held: bool = Field(description="a person holds the seat (an invited seat: claimed; "
                                   "bots: always)")


class LogLine(BaseModel):
    seat: int | None = Field(description="who acted; null for table events")
    text: str
    words: str = Field(description="the same line without card ids, for people")
    cards: list[int] = Field(description="the card ids the line names, in order")


class PayHint(BaseModel):
    """During the viewer's pay decision (``narration.pay_facts``): what the page needs to
    mark the cards that may pay and those that keep the bonus, without rules of its own."""

    card: int = Field(description="the card being paid for")
    side: str = Field(description="its half ('' for a tree)")
    need: int = Field(description="cards still to pay")
    paid: list[int]
    symbol: str = Field(description="the tree symbol every payment card must show for "
                                    "the bonus")
    bonus: str | None = Field(description="the bonus in words; null if the card has none")
    bonus_possible: bool = Field(description="the card has a bonus, every card paid so far "
                                             "shows the symbol and the payable cards hold "
                                             "enough more that show it")
    payable: list[int] = Field(description="the hand cards that may be part of this payment, "
                                           "ascending: any `need` of them may be paid (in "
                                           "ascending order, one pay action each)")
    matching: list[int] = Field(description="the payable cards that show the symbol")
    keeps_bonus: list[int] = Field(description="the payable cards that show the symbol, "
                                               "while the bonus is possible (else empty): "
                                               "each of them can still complete it")
    words: str = Field(description="the bonus at stake in one sentence, with the cards "
                                   "needed and held",
                       examples=["Bonus (Take another turn) if every card paid shows Douglas "
                                 "Fir: you need 2 Douglas Fir cards, you have 1, so it is "
                                 "lost."])
    lost_words: str = Field(description="the sentence once a card that is not in "
                                        "keeps_bonus is chosen for this payment")


class PayPlan(PayHint):
    """A payment before it is made (the payload's ``pay_plans``): the pay hint and the
    question the pay decision would ask."""

    prompt: str = Field(examples=["Pay for Oak (card 12) with 2 more cards of your hand."])


class PickHint(BaseModel):
    """A decision that takes several cards, as one choice of a set (the payload's
    ``picks``; ``engine/picks.py``): any ``least`` to ``most`` of ``cards``, in any order.
    The page keeps the picks until they are confirmed, then sends ``verb`` actions for
    the cards in ascending order, and ``done`` after them when ``ends_with_done`` and
    fewer than ``source_size`` cards were picked."""

    kind: str = Field(examples=["raccoon", "clearing cave", "discard", "pay"])
    verb: str = Field(description="the kind of the actions that take the cards",
                      examples=["cave", "discard", "pay"])
    source: str = Field(description="where the cards are: hand or clearing")
    cards: list[int] = Field(description="the cards that may be picked, ascending")
    least: int
    most: int
    paid: list[int] = Field(description="the cards this decision took already (ids the "
                                        "viewer may see)")
    ends_with_done: bool
    source_size: int
    words: str = Field(examples=["Pick 3 cards of your hand to put face up into the "
                                 "clearing, in any order; a pick can be taken back until "
                                 "you confirm."])
    confirm: list[str] = Field(description="the confirmation for each number of cards "
                                           "picked (item n: n cards)")


class KnownGameOut(BaseModel):
    """A game a browser remembers, as the lobby lists it (``POST /api/known-games``)."""

    game_id: str
    found: bool = Field(description="false: no such game here (any more)")
    title: str | None = None
    over: bool | None = None
    seat: int | None = Field(default=None, description="the token's seat; null if it holds "
                                                       "none")
    token_ok: bool | None = Field(default=None, description="false when a token was sent "
                                                            "that holds no seat")
    names: list[str] | None = None
    to_move: int | None = None
    your_move: bool | None = None
    hotseat: bool | None = None
    link: str | None = None


class RunningScore(BaseModel):
    seat: int
    total: int
    lines: dict[str, int] = Field(description="trees, top_bottom, left_right, cave")


class CardScore(BaseModel):
    card: int | None = Field(description="null for a face-down sapling and the cave line")
    where: str = Field(examples=["tree 2 left"])
    name: str
    points: int
    why: str


class CardPoints(BaseModel):
    points: int
    why: str


class PlayerScore(BaseModel):
    seat: int
    total: int
    lines: dict[str, int] = Field(description="trees, top_bottom, left_right, cave")
    cards: list[CardScore]


class Payload(BaseModel):
    """What one viewer may see of a game (a seat, or a spectator without a seat token)."""

    game_id: str
    game: str = Field(description="the game's id: base, base+alpine, base+woodland_edge, "
                                  "base+alpine+woodland_edge, base+exploration and its "
                                  "combinations, dartmoor")
    game_title: str = Field(description="the game's name for people")
    version: int = Field(description="the number of actions applied; send it with an action")
    you: int | None = Field(description="the viewer's seat; null for a spectator")
    hotseat: bool
    seats: list[SeatInfo]
    view: dict[str, Any] = Field(description="PlayerView.to_dict() of the viewer, or the "
                                             "spectator view (same keys, player -1)")
    to_move: int | None
    decision: str | None = Field(description="turn, draw, pay, option, free, raccoon, mole, "
                                             "mulligan")
    legal: list[str] = Field(description="the viewer's legal actions in text form (empty "
                                         "unless it is to move)")
    legal_words: list[str] = Field(description="the same actions in words")
    prompt: str | None = Field(description="what the decision asks, for the viewer to move: "
                                           "one sentence without a name (a hot-seat page "
                                           "puts the seat's name before it), in the "
                                           "request's language (?lang=, else "
                                           "Accept-Language)",
                               examples=["Pay for Red Fox (card 71) with 2 more cards of "
                                         "your hand."])
    prompt_detail: str | None = Field(
        description="a second line for the viewer's decision, if any: while paying the bonus "
                    "at stake (in the request's language), for an effect, bonus or mushroom "
                    "draw offered its rules text (English for now)",
        examples=["Bonus (Take another turn) if every card paid shows Oak: you need 2 Oak "
                  "cards, you have 3, so it is still possible."])
    pay: PayHint | None
    pay_plans: dict[str, PayPlan] = Field(
        description="for the viewer to move, per card it may play and must pay for (key "
                    "'CARD', or 'CARD SIDE' for a half): the pay hint of that payment before "
                    "any card is paid. The page keeps a play and its payment cards to itself "
                    "until the payment is complete (so it can be taken back), then sends the "
                    "play and the pay actions in ascending order")
    picks: PickHint | None = Field(
        default=None, description="for the viewer to move, a decision that takes several "
                                  "cards as one choice of a set (null otherwise)")
    pick_from: str | None = Field(
        default=None, description="for the viewer to move, where the cards its decision "
                                  "picks lie: 'hand' or 'clearing' (null: in either, or "
                                  "elsewhere; from the kind's declaration)")
    running: list[RunningScore] = Field(
        description="the score pad as it stands now, from the public forests (face-down "
                    "saplings, caves by their size): the same for every viewer")
    card_points: list[dict[str, CardPoints]] = Field(
        description="per seat, the points each visible forest card would score now, by "
                    "card id (the scorer's explanation of the running score)")
    pad_lines: list[list[str]] = Field(
        description="the game's score-pad lines in order, each [key, words] (words in the "
                    "request's language)",
        examples=[[["trees", "Trees"], ["top_bottom", "Top / bottom"]]])
    waited: list[str] = Field(
        description="for the viewer to move: what the others did since its last action, "
                    "one sentence per player's stretch of actions (public words only)",
        examples=[["Bot 2 played Wolf left of tree 3 (Oak) and took Hedgehog from the "
                   "clearing."]])
    log_from: int = Field(description="the index of the first entry of log (the entries "
                                      "the client said it holds; 0: the whole log)")
    log: list[LogLine] = Field(description="the game in words, as this viewer may see it: "
                                           "the entries from log_from to log_total")
    log_total: int = Field(description="the number of entries of the whole log")
    turns: list[int] = Field(description="per seat, the turns it has begun (extra turns "
                                         "included); view.turn counts every seat's turns")
    turn_label: str = Field(description="the table's one turn count in words, with whose "
                                        "turn it is (\"Turn 145: you\", \"Turn 145: Robin\"; "
                                        "the count alone once the game is over), in the "
                                        "request's language")
    clearing_limit: int = Field(description="a turn that ends with this many cards in the "
                                            "clearing empties it (the game's limit)")
    hand_limit: int = Field(description="the most cards a hand may hold (the game's limit)")
    winter_to_end: int = Field(description="the winter card that ends the game (3: the third)")
    over: bool
    scores: list[PlayerScore] | None
    winners: list[int] | None
    rematch: str | None = Field(description="the id of the rematch, once there is one")
    creator: int | None = Field(default=None, description="the seat that may re-issue the "
                                 "invite links (an invite game; null otherwise)")
    deal_chosen: bool = Field(description="the creator chose the seed and so may know every "
                                          "card (docs/web.md, Deals)")
    help: bool = Field(description="false: the seats agreed to play without help (no "
                                   "Suggest; docs/web.md, The coach)")
    solo: SoloPart | None = Field(description="a solo game against the automa (Dartmoor's "
                                             "solo mode; docs/web.md, Solo); else null")


class CardOut(BaseModel):
    id: int
    kind: str = Field(description="tree, split or winter")
    axis: str | None = Field(description="split cards: horizontal (left/right halves) or "
                                         "vertical (top/bottom halves)")
    symbol: str | None = Field(description="a tree card's tree symbol")
    symbols: dict[str, str] = Field(description="the printed tree symbol per half "
                                                "({'tree': name} for a tree card)")
    halves: dict[str, str] = Field(description="species key per half ({'tree': key} for a "
                                               "tree); the species' 'name' is printed")
    label: str
    summary: str
    assumed: list[str] | None = Field(
        default=None, description="a card of a provisional deck: the facts about it that "
                                  "are not known (pairing, sides, symbol...); left out if "
                                  "as printed")
    printed: str | None = Field(default=None, description="its printed number, if known")


class SpeciesOut(BaseModel):
    name: str = Field(description="the name printed on the card (species may share one: "
                                  "the base and the Woodland Edge Squeakers)")
    key: str = Field(description="the species' key, unique in the game (the keys of "
                                 "'species' and the values of a card's 'halves')")
    short_name: str = Field(description="the name where space is short (at most 15 "
                                        "characters, unique in the game)")
    kind: str
    cost: int
    tags: list[str]
    positions: list[str]
    text: dict[str, str] = Field(description="effect, bonus, permanent, points in words")
    short: str = Field(description="one line: every part in short")
    points_short: str = Field(description="the points in short")
    provisional: str | None = Field(default=None, description="what about it is a reading "
                                                              "(left out if none)")


class CaveOut(BaseModel):
    number: int
    text: str = Field(description="its start effect or end points in words")
    provisional: str = Field(description="what about it is a reading ('' if known)")


class Catalog(BaseModel):
    cards: dict[str, CardOut]
    species: dict[str, SpeciesOut]
    caves: list[CaveOut] | None = Field(default=None, description="Dartmoor's numbered caves")
    provisional_deck: str | None = Field(
        default=None, description="what about the deck is provisional (left out: as printed)")


#: Error answers for the ``responses`` of a route.
ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorOut, "description": "bad input or an illegal action"},
    403: {"model": ErrorOut, "description": "this token may not do that"},
    404: {"model": ErrorOut, "description": "no such game"},
    409: {"model": ErrorOut, "description": "stale: sent against an older version"},
}
