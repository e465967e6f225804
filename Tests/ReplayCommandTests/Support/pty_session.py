"""Drives a program through a pseudo-terminal, as a person at a terminal would.

usage: pty_session.py [--no-color] HOME PROGRAM [ARGUMENT...] < KEYS

KEYS is one keystroke sequence per line (escapes like \\r and \\x04 are decoded). After each, the
script waits for the program's first output and then for it to settle, and prints what the
screen received, then the exit status.

The program has settled when it has written nothing for a moment and, after a key that ends a
line or interrupts (a return or a Ctrl-C), when it shows its prompt again: on a busy machine a
command can pause between its first output and its last for longer than any quiet time. A line
that starts with `&` is sent without its `&` and waits for nothing: its command keeps running,
and what it writes is read by the next line's wait. A line that starts with `?` sends nothing:
it waits until the screen shows the text after the `?` (a command's progress, say), so that the
next key lands while that command is still at work (until then, that key interrupts it); as the
first line it takes the place of the wait for the prompt at the start. The program's start waits for the prompt too, unless the program exits.

No wait here judges speed. The quiet times only say when output has settled, and every wait is
bounded by HANG_BOUND, which only stops a program that hangs from hanging the test: a busy
machine may be slow, never that slow.
"""
import os
import re
import pty
import select
import sys
import time


PROMPT = re.compile(rb"\(replay [^()\n]*\) $")

# Seconds: how long any one wait may take before the program counts as hung.
HANG_BOUND = 300.0


def settle(fd, quiet=0.3, limit=HANG_BOUND, prompt=False, text=None):
    # The quiet time counts from the last output, once there is some: every key the tests send
    # makes the program write something, and a busy machine may take a while to run it.
    output = b""
    deadline = time.time() + limit

    def waiting():
        if text is not None:
            return text not in output
        if last is None or time.time() - last < quiet:
            return True
        return prompt and not PROMPT.search(output)

    last = None
    while time.time() < deadline and waiting():
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


options = sys.argv[1:]
no_color = options[:1] == ["--no-color"]
if no_color:
    options = options[1:]
home, program, arguments = options[0], options[1], options[2:]
keys_lines = sys.stdin.read().splitlines()
pid, fd = pty.fork()
if pid == 0:
    os.environ["HOME"] = home
    os.environ["TERM"] = "xterm"
    os.environ.pop("NO_COLOR", None)
    if no_color:
        os.environ["NO_COLOR"] = "1"
    os.execv(program, [program] + arguments)

if not keys_lines[:1] or not keys_lines[0].startswith("?"):
    print(repr(settle(fd, quiet=1.0, prompt=True)))
for line in keys_lines:
    if line.startswith("?"):
        print(repr(settle(fd, text=line[1:].encode())))
        continue
    keeps_running = line.startswith("&")
    keys = line[1:] if keeps_running else line
    keys = keys.encode().decode("unicode_escape").encode("latin-1")
    os.write(fd, keys)
    if not keeps_running:
        print(repr(settle(fd, prompt=b"\r" in keys or b"\x03" in keys)))
deadline = time.time() + HANG_BOUND
while True:
    done, status = os.waitpid(pid, os.WNOHANG)
    if done:
        print("exit", os.WEXITSTATUS(status) if os.WIFEXITED(status) else -1)
        break
    if time.time() > deadline:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
        print("exit: still running %d s after the last key, killed" % HANG_BOUND)
        break
    settle(fd, quiet=0.05, limit=0.1)
