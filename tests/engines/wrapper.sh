#!/bin/sh
# A wrapper script as engines are often started: it runs a helper (`sleep SECONDS`, the seconds
# telling the test which process to look for) and the engine itself as its own children.
sleep "$1" &
shift
"$@"
