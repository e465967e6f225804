"""Drives a program through a pseudo-terminal, as a person at a terminal would.

usage: pty_session.py HOME PROGRAM [ARGUMENT...] < KEYS

KEYS is one keystroke sequence per line (escapes like \\r and \\x04 are decoded). After each, the
script waits for the program's output to settle and prints what the screen received, then the
exit status.
"""
import os
import pty
import select
import sys
import time


def settle(fd, quiet=0.3, limit=5.0):
    output = b""
    deadline = time.time() + limit
    last = time.time()
    while time.time() < deadline and time.time() - last < quiet:
        ready, _, _ = select.select([fd], [], [], 0.05)
        if ready:
            try:
                data = os.read(fd, 4096)
            except OSError:
                break
            if not data:
                break
            output += data
            last = time.time()
    return output.decode("utf-8", errors="replace")


home, program, arguments = sys.argv[1], sys.argv[2], sys.argv[3:]
pid, fd = pty.fork()
if pid == 0:
    os.environ["HOME"] = home
    os.environ["TERM"] = "xterm"
    os.environ.pop("NO_COLOR", None)
    os.execv(program, [program] + arguments)

print(repr(settle(fd, quiet=1.0)))
for line in sys.stdin.read().splitlines():
    os.write(fd, line.encode().decode("unicode_escape").encode("latin-1"))
    print(repr(settle(fd)))
_, status = os.waitpid(pid, 0)
print("exit", os.WEXITSTATUS(status) if os.WIFEXITED(status) else -1)
