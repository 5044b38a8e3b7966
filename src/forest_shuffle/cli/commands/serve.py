"""The ``serve`` sub-command: the web server for browser play (docs/web.md).

``--game ID`` (default ``base``) is the game a new table gets when its request names none.
Before the banner the port is tried: one taken is one line (``port 8000 is taken; try
--port 8001``) and exit status 2, as is an address this machine cannot listen on. The
banner says where the games are stored.
"""

from __future__ import annotations

import errno
import os
import socket
from typing import Annotated

import typer

from forest_shuffle.cli.commands.options import GameOption, game_from_option
from forest_shuffle.cli.words import _
from forest_shuffle.games import BASE_ID

#: How many ports after a taken one are tried for the suggestion.
PORTS_TRIED = 50


def _bind_error(host: str, port: int) -> OSError | None:
    """The error binding a listening socket to ``host:port`` gives now (as uvicorn binds
    it, with ``SO_REUSEADDR``), or None if it can be bound."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM,
                                   flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        return OSError(errno.EADDRNOTAVAIL, exc.strerror or str(exc))
    for family, kind, proto, _name, address in infos[:1]:
        with socket.socket(family, kind, proto) as sock:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                sock.bind(address)
            except OSError as exc:
                return exc
    return None


def port_problem(host: str, port: int) -> str | None:
    """One line saying why the server cannot listen on ``host:port`` (a taken port with
    the next free one to try), or None if it can (port 0: any free port, always)."""
    if port == 0:
        return None
    exc = _bind_error(host, port)
    if exc is None:
        return None
    if exc.errno == errno.EADDRINUSE:
        free = next((p for p in range(port + 1, min(65536, port + 1 + PORTS_TRIED))
                     if _bind_error(host, p) is None), None)
        hint = f"; try --port {free}" if free is not None else ""
        return f"port {port} is taken{hint}"
    why = exc.strerror or str(exc)
    return f"cannot listen on {host}:{port}: {why}"


def storage_words(url: str) -> str:
    """Where the games of database ``url`` are kept, for the banner (no password)."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        parsed = make_url(url)
    except ArgumentError:
        return f"games are stored in {url[:60]}"
    if parsed.get_backend_name() == "sqlite":
        if parsed.database in (None, "", ":memory:"):
            return "games are kept in memory only (gone when the server stops; --db to keep)"
        return f"games are stored in {os.path.abspath(parsed.database)}"
    return f"games are stored in {parsed.render_as_string(hide_password=True)}"


def serve_command(
    host: Annotated[str, typer.Option("--host", help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="Port to listen on.")] = 8000,
    db: Annotated[str | None, typer.Option(
        "--db", metavar="URL",
        help="SQLAlchemy database URL (sqlite:///games.db, postgresql://user@host/db).",
        show_default="SQLite in the user's data directory")] = None,
    bot_delay: Annotated[float, typer.Option(
        "--bot-delay", metavar="S", help="Seconds a bot waits before each action.")] = 0.4,
    bot_processes: Annotated[int | None, typer.Option(
        "--bot-processes", metavar="N",
        help="Worker processes in which hard bots think (0: in the server's threads).",
        show_default="the number of CPUs")] = None,
    limits: Annotated[str, typer.Option(
        "--limits", metavar="NAME=VALUE,...", envvar="FOREST_SHUFFLE_LIMITS",
        help="Change bounds on input, floods and the coach (docs/web.md, Limits), such as "
             "requests_per_second=200,spectators_per_game=20 or suggest_time=0.5,"
             "review_moves=6; a value 'off' removes a flood bound, 'off' alone every flood "
             "bound (the sizes and the coach's bounds stay).")] = "",
    pubsub: Annotated[str | None, typer.Option(
        "--pubsub", metavar="URL",
        help="Redis URL (redis://host:6379/0): this server is one of several processes on "
             "one PostgreSQL database (docs/deploy.md); needs forest-shuffle[scale].")] = None,
    workers: Annotated[int, typer.Option(
        "--workers", metavar="N",
        help="Server processes on this port (more than 1 needs --db postgresql://... and "
             "--pubsub).")] = 1,
    forwarded: Annotated[str, typer.Option(
        "--forwarded-allow-ips", metavar="IPS", envvar="FORWARDED_ALLOW_IPS",
        help="Proxies whose X-Forwarded-For names the client (comma-separated; the "
             "per-address limits then count real clients).")] = "127.0.0.1",
    lease: Annotated[float, typer.Option(
        "--bot-lease", metavar="S",
        help="With --pubsub: seconds after which another process takes over the bots of a "
             "process that died.")] = 5.0,
    levels: Annotated[str, typer.Option(
        "--levels", metavar="NAME=SPEC;...",
        help="More bot levels for the page, such as trained=policy:net.npz (a trained "
             "policy, docs/research.md); worker processes inherit them.")] = "",
    warm: Annotated[bool, typer.Option(
        "--warm-workers",
        help="Start the worker processes of hard bots and of the coach at once (each "
             "takes a second or more), not at their first search.")] = False,
    game: GameOption = BASE_ID,
) -> None:
    """Serve games in the browser: the page at http://HOST:PORT/, the API at /docs."""
    game_id = game_from_option(game).id
    if levels:
        from forest_shuffle.bots import BotSpecError
        from forest_shuffle.bots.registry import add_levels

        try:
            add_levels(levels)
        except BotSpecError as exc:
            typer.echo(_("--levels: {message}", message=exc), err=True)
            raise typer.Exit(2) from None
        os.environ["FOREST_SHUFFLE_LEVELS"] = levels
    if not 0 <= port <= 65535:
        typer.echo(_("--port must be from 0 to 65535, not {port}", port=port), err=True)
        raise typer.Exit(2)
    if bot_delay < 0:
        typer.echo(_("--bot-delay must be at least 0, not {value}", value=format(bot_delay, "g")),
                   err=True)
        raise typer.Exit(2)
    if bot_processes is None:
        bot_processes = os.cpu_count() or 1
    elif bot_processes < 0:
        typer.echo(_("--bot-processes must be at least 0, not {value}", value=bot_processes),
                   err=True)
        raise typer.Exit(2)
    if workers < 1:
        typer.echo(_("--workers must be at least 1, not {value}", value=workers), err=True)
        raise typer.Exit(2)
    if not 0.5 <= lease <= 600:
        typer.echo(_("--bot-lease must be from 0.5 to 600 seconds, not {value}",
                     value=format(lease, "g")), err=True)
        raise typer.Exit(2)
    shared = db is not None and db.startswith("postgresql")
    if workers > 1 and not (shared and pubsub):
        typer.echo("--workers above 1 needs --db postgresql://... and --pubsub redis://... "
                   "(processes share games through them; docs/deploy.md)", err=True)
        raise typer.Exit(2)
    if pubsub is not None and not pubsub.startswith(("redis://", "rediss://", "unix://")):
        typer.echo(f"--pubsub must be a redis:// URL, not {pubsub[:60]!r}", err=True)
        raise typer.Exit(2)
    problem = port_problem(host, port)
    if problem is not None:
        typer.echo(problem, err=True)
        raise typer.Exit(2)
    from forest_shuffle.server.limits import fit_to_files, parse_limits, raise_file_limit

    try:
        bounds = parse_limits(limits)
    except ValueError as exc:
        typer.echo(_("--limits: {message}", message=exc), err=True)
        raise typer.Exit(2) from None
    files = raise_file_limit()
    fitted = fit_to_files(bounds, files)
    if fitted != bounds:
        typer.echo(_("the open-file limit ({files}) allows {sockets} sockets ({spectators} "
                     "spectators)", files=files, sockets=fitted.sockets,
                     spectators=fitted.spectators), err=True)
    bounds = fitted
    import uvicorn
    from sqlalchemy.exc import ArgumentError, NoSuchModuleError, OperationalError

    from forest_shuffle.server.app import create_app

    # A socket frame holds one message: twice the message bound is room enough, and few
    # frames wait per socket (the server reads a fast sender slower).
    frame = max(8192, 2 * bounds.message_bytes)
    if workers > 1:
        import json

        from forest_shuffle.server.app import SERVE_ENV
        from forest_shuffle.server.pubsub import RedisBus
        from forest_shuffle.server.store import Store

        assert db is not None and pubsub is not None  # checked above
        try:  # in the parent first: a bad database or Redis is one line, not N crashes
            Store(db).close()
            RedisBus(pubsub).close()
        except ImportError as exc:
            typer.echo(_("a driver is missing ({name}); install {package}", name=exc.name,
                         package="forest-shuffle[scale]"), err=True)
            raise typer.Exit(2) from None
        except Exception as exc:
            line = (str(exc).splitlines() or [type(exc).__name__])[0]
            typer.echo(_("cannot open the database or Redis: {message}", message=line), err=True)
            raise typer.Exit(2) from None
        os.environ[SERVE_ENV] = json.dumps({
            "db": db, "bot_delay": bot_delay, "bot_processes": bot_processes,
            "limits": limits, "pubsub": pubsub, "lease": lease, "game": game_id,
            "workers": workers, "warm": warm,
            "parent": os.getpid()})  # uvicorn's supervisor: the workers exit with it
        typer.echo(f"Forest Shuffle on http://{host}:{port}/ (API: /docs), {workers} worker "
                   f"processes; {storage_words(db)}", err=True)
        uvicorn.run("forest_shuffle.server.app:app_from_env", factory=True, workers=workers,
                    host=host, port=port, log_level="warning", ws_max_size=frame,
                    ws_max_queue=4, limit_concurrency=max(64, files - 64),
                    forwarded_allow_ips=forwarded,
                    # slow requests and connections per address bounded in each worker
                    http="forest_shuffle.server.conns:WorkerProtocol")
        return
    from forest_shuffle.server.app import default_db_url

    if db is None:
        db = default_db_url()
    try:
        app = create_app(db, bot_delay, bot_processes=bot_processes, limits=bounds,
                         pubsub=pubsub, lease_seconds=lease, game=game_id,
                         warm_workers=warm)
    except ValueError as exc:  # Redis, a database that cannot be shared, the game
        line = (str(exc).splitlines() or [type(exc).__name__])[0]
        typer.echo(f"--pubsub: {line}" if pubsub else line, err=True)
        raise typer.Exit(2) from None
    except ImportError as exc:
        typer.echo(_("--db: a driver is missing ({name}); for PostgreSQL install {package}",
                     name=exc.name, package="forest-shuffle[postgres]"), err=True)
        raise typer.Exit(2) from None
    except (ArgumentError, NoSuchModuleError, OperationalError) as exc:
        line = str(exc).splitlines()[0]
        typer.echo(_("--db: cannot open the database: {message}", message=line), err=True)
        raise typer.Exit(2) from None
    typer.echo(f"Forest Shuffle on http://{host}:{port}/ (API: /docs); {storage_words(db)}",
               err=True)
    # a frame over the body bound is closed by uvicorn (1009); connections beyond what the
    # open files allow get 503 rather than a failing accept()
    from forest_shuffle.server.conns import protocol_options

    # slow requests and connections per address are bounded by the server itself
    uvicorn.run(app, host=host, port=port, log_level="warning", ws_max_size=frame,
                ws_max_queue=4, limit_concurrency=max(64, files - 64),
                forwarded_allow_ips=forwarded, **protocol_options(bounds))


def register(app: typer.Typer) -> None:
    """Add the ``serve`` sub-command to ``app``."""
    app.command("serve")(serve_command)
