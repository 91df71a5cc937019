"""A player's process: started in a process group of its own, spoken to one line at a time, never waited on
past a deadline, and ended with everything it started.

A :class:`PlayerProcess` runs a command line with its standard input and output as the protocol's pipes
(:mod:`~cspmines.agents.protocol`). Every read and write has a deadline, so a player that hangs, stops
reading or floods its output costs at most that time; a player that exits is seen at once. The process
leads a new session, so a terminal's Ctrl-C reaches cspmines and not the player, and :meth:`~PlayerProcess.kill`
ends the whole group (whatever the player started itself). Every live process is also ended:

* by :func:`close_players` (the bench calls it when a run ends, however it ends), and at interpreter exit;
* in a worker process (a process pool's, Ray's), when the worker is stopped by SIGTERM or exits;
* on Linux, by the kernel when the thread that started it dies, even by SIGKILL (the parent-death signal).

Standard error is kept, its last lines, for the detail of a crash.

>>> import sys
>>> echo = PlayerProcess([sys.executable, "-c", "import sys; print(sys.stdin.readline().upper(), end='')"])
>>> echo.send("hello", timeout=5); echo.receive(timeout=5)
'HELLO'
>>> echo.receive(timeout=5)
Traceback (most recent call last):
...
cspmines.games.playing.PlayerFault: crashed: the player exited (status 0)
>>> echo.kill()
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import os
import select
import signal
import subprocess
import sys
import threading

from ..engine.budget import SLIVER, Budget, Limit
from ..games.playing import Fault, PlayerFault
from .protocol import QUIT

__all__ = ["PlayerProcess", "close_players", "live_players"]

LONGEST_LINE = 1 << 20  # bytes: a longer line is not an answer
STDERR_KEPT = 2000  # characters of the player's standard error kept for a crash's detail
QUIT_GRACE = 1.0  # seconds a player is given to exit after quit, before its group is killed

_LIVE: set = set()
_LOCK = threading.RLock()  # reentrant: the SIGTERM handler may run while this thread holds it
_HOOKED = False


class PlayerProcess:
    """A command line's process, with its lines in and out under deadlines.

    Parameters
    ----------
    argv : list of str
        The command and its arguments (no shell).

    Raises
    ------
    PlayerFault
        ``crashed`` when the command cannot be started (no such program, not executable).
    """

    def __init__(self, argv: list[str]):
        _hook_exits()
        self.argv = list(argv)
        try:
            self._process = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                             bufsize=0, start_new_session=True, preexec_fn=_die_with_parent())
        except OSError as error:
            raise PlayerFault(Fault.CRASHED, f"cannot start {self.argv[0]!r}: {error.strerror or error}") from None
        with _LOCK:
            _LIVE.add(self)
        assert self._process.stdin and self._process.stdout and self._process.stderr
        self._in, self._out, self._err = (stream.fileno() for stream in (self._process.stdin, self._process.stdout,
                                                                          self._process.stderr))
        for fd in (self._in, self._out, self._err):
            os.set_blocking(fd, False)
        self._buffer = b""
        self._stderr = ""
        self._poll = select.poll()
        self._poll.register(self._out, select.POLLIN)
        self._poll.register(self._err, select.POLLIN)

    @property
    def pid(self) -> int:
        return self._process.pid

    @property
    def alive(self) -> bool:
        return self._process.poll() is None

    def send(self, line: str, *, timeout: float) -> None:
        """Write ``line`` and a newline within ``timeout`` seconds (a player that stops reading times out)."""
        data = (line + "\n").encode("utf-8")
        budget = _within(timeout)
        while data:
            try:
                data = data[os.write(self._in, data):]
            except BlockingIOError:
                remaining = _seconds(budget)
                if remaining <= 0:
                    raise PlayerFault(Fault.TIMED_OUT, f"the player read nothing for {timeout:g} s") from None
                select.select([], [self._in], [], remaining)
            except (BrokenPipeError, ConnectionResetError):
                raise self._crashed() from None

    def receive(self, *, timeout: float) -> str:
        """The player's next line, within ``timeout`` seconds."""
        budget = _within(timeout)
        while b"\n" not in self._buffer:
            remaining = _seconds(budget)
            if remaining <= 0:
                raise PlayerFault(Fault.TIMED_OUT, f"no answer within {timeout:g} s")
            for fd, _ in self._poll.poll(int(remaining * 1000) + 1):
                if fd == self._err:
                    self._read_stderr()
                elif not self._read_stdout():
                    raise self._crashed()
            if len(self._buffer) > LONGEST_LINE:
                raise PlayerFault(Fault.BAD_MESSAGE, f"a line of more than {LONGEST_LINE} bytes")
        line, _, self._buffer = self._buffer.partition(b"\n")
        try:
            return line.decode("utf-8")
        except UnicodeDecodeError:
            raise PlayerFault(Fault.BAD_MESSAGE, f"not UTF-8 text: {line[:60]!r}") from None

    def check_quiet(self) -> None:
        """Raise when the player has said something it was not asked for (or has exited): before a question,
        so an answer is never taken for the answer to the next one."""
        for fd, _ in self._poll.poll(0):
            if fd == self._err:
                self._read_stderr()
            elif not self._read_stdout():
                raise self._crashed()
        if self._buffer:
            shown = self._buffer.split(b"\n")[0][:80].decode("utf-8", "replace")
            raise PlayerFault(Fault.BAD_MESSAGE, f"a line sent without being asked: {shown!r}")

    def _read_stdout(self) -> bool:
        try:
            chunk = os.read(self._out, 65536)
        except BlockingIOError:
            return True
        self._buffer += chunk
        return bool(chunk)

    def _read_stderr(self) -> None:
        try:
            chunk = os.read(self._err, 65536)
        except BlockingIOError:
            return
        if chunk:
            self._stderr = (self._stderr + chunk.decode("utf-8", "replace"))[-STDERR_KEPT:]
        else:
            self._poll.unregister(self._err)

    def _crashed(self) -> PlayerFault:
        """The fault of a player whose output closed: its exit status and the last of its standard error."""
        try:
            status = self._process.wait(timeout=1)
        except subprocess.TimeoutExpired:
            how = "the player closed its output"
        else:
            how = f"the player exited (status {status})" if status >= 0 else f"the player was killed by {_signal_name(-status)}"
        for fd, _ in self._poll.poll(0):
            if fd == self._err:
                self._read_stderr()
        said = self._stderr.strip().splitlines()[-3:]
        return PlayerFault(Fault.CRASHED, how + (": " + " | ".join(said) if said else ""))

    def close(self, quit_line: str | None = None) -> None:
        """Say ``quit_line`` (when given), give the player a moment to exit, then end its group."""
        if quit_line is not None and self.alive:
            try:
                self.send(quit_line, timeout=QUIT_GRACE)
                self._process.wait(timeout=QUIT_GRACE)
            except (PlayerFault, subprocess.TimeoutExpired):
                pass
        self.kill()

    def kill(self) -> None:
        """End the player's process group at once (SIGKILL), reap the process and close its pipes."""
        with contextlib.suppress(ProcessLookupError, PermissionError):  # the group is gone already
            os.killpg(self._process.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):  # an unkillable process (stuck in the kernel): not ours to wait for
            self._process.wait(timeout=5)
        for stream in (self._process.stdin, self._process.stdout, self._process.stderr):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()
        with _LOCK:
            _LIVE.discard(self)


def live_players() -> list[PlayerProcess]:
    """The player processes started in this process and not yet ended."""
    with _LOCK:
        return list(_LIVE)


def close_players(quit_line: str | None = None) -> None:
    """End every player process started in this process (saying ``quit_line`` first, when given)."""
    for player in live_players():
        player.close(quit_line)


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def _die_with_parent():
    """A function run in the child before the command: on Linux, have the kernel kill it when the thread
    that started it dies (PR_SET_PDEATHSIG), so even a parent killed outright leaves no player behind."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl  # looked up here, not between fork and exec
    except (OSError, AttributeError):
        return None
    parent = os.getpid()

    def arm() -> None:
        prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        if os.getppid() != parent:  # the parent died before the signal was armed
            os._exit(1)

    return arm


def _forget_inherited() -> None:
    """In a forked child: the parent's players are the parent's to speak to and end, not this process's."""
    global _LOCK, _HOOKED
    _LOCK = threading.RLock()
    _LIVE.clear()
    _HOOKED = False


os.register_at_fork(after_in_child=_forget_inherited)


def _hook_exits() -> None:
    """Once a process starts a player: end its players at interpreter exit, at a worker's exit (a process
    pool's workers leave through multiprocessing, not atexit), and on SIGTERM in a worker."""
    global _HOOKED
    if _HOOKED:
        return
    _HOOKED = True
    atexit.register(close_players, QUIT)
    import multiprocessing
    import multiprocessing.util

    if multiprocessing.parent_process() is None:
        return  # the main process keeps its own SIGTERM handling (the bench turns it into Ctrl-C)
    multiprocessing.util.Finalize(None, close_players, args=(QUIT,), exitpriority=100)
    if threading.current_thread() is threading.main_thread():  # a worker ended by SIGTERM dies of it, players first
        signal.signal(signal.SIGTERM, _ended_by_sigterm)  # (a forked worker may have inherited the bench's own handler)


def _ended_by_sigterm(signum, frame) -> None:
    """A worker stopped by SIGTERM: end its players, then die of the signal as it would have."""
    for player in live_players():
        player.kill()
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    os.kill(os.getpid(), signal.SIGTERM)


def _within(timeout: float) -> Budget:
    """A budget of ``timeout`` seconds from now (none left at all: a sliver, spent at once)."""
    return Limit(time=max(SLIVER, timeout), memory=None).start()


def _seconds(budget: Budget) -> float:
    """The seconds left of a budget that has a time limit (every one :func:`_within` makes)."""
    left = budget.left()
    assert left is not None
    return left
