#!/usr/bin/env python3
"""Runs a command as its foreground child, in its own process group, the way a shell
script or make does, and counts the SIGINTs that reach this parent: each Ctrl-C pressed
at the terminal, and any signal the child sends its whole group. When the child ends it
prints EXITED-<status> SIGINTS-<count> and waits, so that the terminal test can read it.
The child's process id is written to PID_FILE.

Usage: foreground_parent.py PID_FILE COMMAND [ARGUMENT...]
"""
import signal
import subprocess
import sys
import time

interrupts = 0


def count(number, frame):
    global interrupts
    interrupts += 1


signal.signal(signal.SIGINT, count)
child = subprocess.Popen(sys.argv[2:])
with open(sys.argv[1], "w") as pid_file:
    pid_file.write(f"{child.pid}\n")
status = child.wait()
print(f"EXITED-{status} SIGINTS-{interrupts}", flush=True)
time.sleep(30)
