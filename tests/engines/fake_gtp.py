"""A stand-in GTP engine for the engine tests: it answers ``name`` and ``version`` (its pid),
``echo_ok`` at once, and hangs on any other command (a hung engine)."""

import os
import sys
import time

for line in sys.stdin:
    word = line.split()[0] if line.split() else ""
    if word == "name":
        sys.stdout.write("= Fake\n\n")
    elif word == "version":
        sys.stdout.write(f"= {os.getpid()}\n\n")
    elif word == "boardsize":
        sys.stdout.write("= \n\n")
    else:
        sys.stdout.flush()
        while True:
            time.sleep(60)
    sys.stdout.flush()
