"""Runs a program with its address space limited, as a bound on what it may allocate.

usage: address_space.py MARGIN_MB PROGRAM BASELINE_ARGS... [-- ARGS...]...

Finds the smallest address-space limit (to 4 MB) under which PROGRAM BASELINE_ARGS exits
with 0, then runs PROGRAM with each ARGS under that limit plus MARGIN_MB and prints, a line
each, its exit status (negative: the signal that ended it) and the first line it wrote. An allocation sized by a
number a file claims, rather than by the file, does not fit in the margin: the program then
dies of a failed allocation instead of answering.
"""
import resource
import subprocess
import sys


def run(limit, args):
    def limited():
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    return subprocess.run(args, capture_output=True, preexec_fn=limited)


def main():
    margin = int(sys.argv[1]) << 20
    program = sys.argv[2]
    groups = [[]]
    for argument in sys.argv[3:]:
        if argument == "--":
            groups.append([])
        else:
            groups[-1].append(argument)
    baseline = [program] + groups[0]
    low, high = 16 << 20, 8 << 30
    expected = run(high, baseline).returncode
    if expected != 0:
        sys.exit("the baseline fails even with 8 GB of address space")
    while high - low > 4 << 20:
        middle = (low + high) // 2
        if run(middle, baseline).returncode == expected:
            high = middle
        else:
            low = middle
    for args in groups[1:]:
        result = run(high + margin, [program] + args)
        said = (result.stdout + result.stderr).decode(errors="replace").split("\n")[0]
        sys.stdout.write("%d %s\n" % (result.returncode, said))


main()
