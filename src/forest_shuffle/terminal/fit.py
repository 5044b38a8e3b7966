"""Renderables that fit the console's width.

Contract: :class:`Fitted` wraps a function of the width available (``options.max_width``)
that builds what to draw, so a table can give its columns widths that fit instead of
letting rich shrink every column alike (which can cut a narrow column, such as the typed
numbers, to nothing).
"""

from __future__ import annotations

from collections.abc import Callable

from rich.console import Console, ConsoleOptions, RenderableType, RenderResult


class Fitted:
    """Draws ``build(width)`` for the width the console offers."""

    def __init__(self, build: Callable[[int], RenderableType]) -> None:
        self.build = build

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield self.build(options.max_width)
