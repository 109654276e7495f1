"""A real pseudo-terminal for driving `pbem` as a person would (standard
library only: `os.openpty`, a window size of 80x24 set with TIOCSWINSZ).

`Terminal.expect(text)` reads until `text` shows up and returns what came
since the previous expect, with ANSI escapes kept (`plain()` strips them).
"""

from __future__ import annotations

import fcntl
import os
import re
import select
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07")
#: an SGR sequence that sets a colour (foreground or background)
COLOUR = re.compile(r"\x1b\[(?:[0-9;]*;)?(?:3[0-9]|4[0-9]|9[0-7]|10[0-7])(?:;[0-9;]*)?m")


def plain(text: str) -> str:
    return ANSI.sub("", text).replace("\r\n", "\n").replace("\r", "")


def pbem_command() -> list[str]:
    exe = Path(sys.executable).parent / "pbem"
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "pbem"]


class Terminal:
    def __init__(self, args: list[str], env: dict[str, str], cols: int = 80, rows: int = 24) -> None:
        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        self.proc = subprocess.Popen(
            args, stdin=slave, stdout=slave, stderr=slave, env=env, close_fds=True, start_new_session=True
        )
        os.close(slave)
        self.fd = master
        self.buf = ""
        self.mark = 0

    def _read(self, timeout: float) -> bool:
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if not ready:
            return True
        try:
            data = os.read(self.fd, 65536)
        except OSError:  # EIO: the other side is closed
            return False
        if not data:
            return False
        self.buf += data.decode("utf-8", "replace")
        return True

    def expect(self, text: str, timeout: float = 30) -> str:
        end = time.monotonic() + timeout
        while text not in plain(self.buf[self.mark :]):
            open_ = self._read(0.2)
            if text in plain(self.buf[self.mark :]):
                break
            if not open_ or time.monotonic() > end:
                raise AssertionError(f"{text!r} not seen; got:\n{plain(self.buf[self.mark:])[-3000:]}")
        got = self.buf[self.mark :]
        self.mark = len(self.buf)
        return got

    def send(self, line: str) -> None:
        os.write(self.fd, (line + "\n").encode())

    def eof(self) -> None:
        os.write(self.fd, b"\x04")

    def wait(self, timeout: float = 30) -> tuple[int, str]:
        """The exit code and the rest of the output."""
        end = time.monotonic() + timeout
        while time.monotonic() < end and self._read(0.2):
            if self.proc.poll() is not None and not select.select([self.fd], [], [], 0)[0]:
                break
        code = self.proc.wait(max(0.1, end - time.monotonic()))
        rest = self.buf[self.mark :]
        self.mark = len(self.buf)
        return code, rest

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        os.close(self.fd)


def run(args: list[str], env: dict[str, str], timeout: float = 60) -> str:
    """Run a command to the end in a pseudo-terminal; its whole output."""
    term = Terminal(args, env)
    try:
        code, out = term.wait(timeout)
        assert code == 0, plain(out)
        return out
    finally:
        term.close()
