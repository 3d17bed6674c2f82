"""``thirtyone serve``: the web application on a local port, under uvicorn.

It listens on 127.0.0.1 unless told otherwise, on the port given or else on :data:`DEFAULT_PORT`
when that one is free (so a page left open finds the server again after a restart), else on one
the system gives. It prints the address, opens the browser (on a thread of its own: a text-mode
browser must not hold the server up) and serves until Ctrl-C, SIGTERM or SIGHUP, any of which closes
the pages' connections and stops; the games are saved after every event, so nothing is lost.
"""

from __future__ import annotations

import contextlib
import errno
import ipaddress
import os
import signal
import socket
import threading
import webbrowser
from collections.abc import Callable, Iterator
from pathlib import Path

import uvicorn

from thirtyone.names import quoted
from thirtyone.web.advice import Budget
from thirtyone.web.app import Settings, create_app
from thirtyone.web.guard import own_hosts

#: The port tried first when none is given ("31").
DEFAULT_PORT = 8031
#: The largest WebSocket message uvicorn reads (a page's messages are far smaller; the room
#: answers anything over its own limit with an error message).
WS_MAX_SIZE = 1 << 20


class ServeError(Exception):
    """The server cannot start (the message says why)."""


def loopback(host: str) -> bool:
    """Whether ``host`` is this machine only."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def listen(host: str, port: int | None) -> socket.socket:
    """A socket bound to ``host`` and ``port`` (None: :data:`DEFAULT_PORT` if free, else any).
    Raises :class:`ServeError`."""
    bare = "127.0.0.1" if host == "localhost" else host.strip("[]")
    try:
        infos = socket.getaddrinfo(bare, None, type=socket.SOCK_STREAM)
    except OSError as err:
        raise ServeError(f"--host {quoted(host)}: {err.strerror or err}") from None
    except UnicodeError:  # (a name the IDNA codec refuses: a label over 63 characters)
        raise ServeError(f"--host {quoted(host)}: not a name of a machine") from None
    family, _, _, _, address = infos[0]
    ports = [port] if port is not None else [DEFAULT_PORT, 0]
    for i, tried in enumerate(ports):
        sock = socket.socket(family, socket.SOCK_STREAM)
        if os.name != "nt":  # (on Windows it would let two servers share the port)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((address[0], tried))
        except OSError as err:
            sock.close()
            if i + 1 < len(ports):
                continue
            in_use = err.errno == errno.EADDRINUSE or getattr(err, "winerror", None) == 10048
            why = "it is in use" if in_use else err.strerror or str(err)
            raise ServeError(f"cannot listen on {host} port {tried}: {why}") from None
        sock.listen(2048)  # (a browser that comes before uvicorn starts waits, not refused)
        sock.set_inheritable(True)
        return sock
    raise ServeError("no port to listen on")  # pragma: no cover (the list ends with 0)


def url_of(sock: socket.socket, host: str) -> str:
    port = sock.getsockname()[1]
    if not loopback(host) and host.strip("[]") in ("0.0.0.0", "::"):
        host = "127.0.0.1"
    shown = host.strip("[]")
    shown = f"[{shown}]" if ":" in shown else shown
    return f"http://{shown}:{port}/"


def serve(
    host: str,
    port: int | None,
    *,
    browser: bool,
    save: Path,
    budget: Budget,
    say: Callable[[str], None],
    warn: Callable[[str], None],
) -> None:
    """Serve until Ctrl-C (see the module's doc). Raises :class:`ServeError`."""
    sock = listen(host, port)
    bound = sock.getsockname()[1]
    url = url_of(sock, host)
    app = create_app(Settings(save, own_hosts(host.strip("[]"), bound), budget))
    config = uvicorn.Config(
        app,
        ws="websockets-sansio",
        ws_max_size=WS_MAX_SIZE,
        lifespan="off",
        log_level="warning",
        access_log=False,
        proxy_headers=False,
        server_header=False,
        timeout_graceful_shutdown=2,
    )
    server = uvicorn.Server(config)
    if not loopback(host):
        warn(
            f"Warning: listening on {host}: anyone who can reach this machine on port {bound} "
            "can open the table, play your game and see your hand (pages of other sites are "
            "still refused). Leave out --host to keep it to this machine."
        )
    say(f"The table is at {url}  (Ctrl-C stops the server; your game is saved as you play.)")
    if browser:
        threading.Thread(target=_open, args=(url, say), daemon=True).start()
    try:
        with _term_as_interrupt(), _hangup_stops(server):
            server.run(sockets=[sock])
    except KeyboardInterrupt:
        pass
    finally:
        sock.close()
    with contextlib.suppress(OSError):  # (after a hangup the terminal may be gone)
        say("Stopped.")


class _Terminated(KeyboardInterrupt):
    """SIGTERM, ended as Ctrl-C is."""


@contextlib.contextmanager
def _term_as_interrupt() -> Iterator[None]:
    """Within: SIGTERM stops the server as Ctrl-C does (ruling 292). uvicorn catches both while
    it serves, closes the pages' connections, then raises the signal again under the handler
    it found: the default one ended the process at once (exit status 143, no "Stopped."); this
    one raises :class:`_Terminated`, a KeyboardInterrupt. A SIGTERM ignored when the command
    began (or handled by a program embedding it) is left as it is."""
    main = threading.current_thread() is threading.main_thread()
    if not main or signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL:
        yield
        return

    def stop(signum: int, frame: object) -> None:
        raise _Terminated

    signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)


@contextlib.contextmanager
def _hangup_stops(server: uvicorn.Server) -> Iterator[None]:
    """Within: SIGHUP (the terminal closed) stops ``server`` as Ctrl-C does, closing the pages'
    connections; uvicorn leaves it to the default, which ended the process at once. Left as it
    is where it was not the default (``nohup``, a program embedding the server), on another
    thread, and where the system has no SIGHUP."""
    hup = getattr(signal, "SIGHUP", None)
    main = threading.current_thread() is threading.main_thread()
    if hup is None or not main or signal.getsignal(hup) is not signal.SIG_DFL:
        yield
        return
    signal.signal(hup, server.handle_exit)
    try:
        yield
    finally:
        signal.signal(hup, signal.SIG_DFL)


def _open(url: str, say: Callable[[str], None]) -> None:
    try:
        opened = webbrowser.open(url)
    except Exception:  # (no browser to be found: the address is printed)
        opened = False
    if not opened:
        say(f"No browser could be opened here: open {url} in yours.")
