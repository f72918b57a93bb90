#!/bin/sh
# A script with a failing command: the run must fail with the command's
# status (3), after the first line and before the second.
set -e
echo "before the failing command"
sh -c 'exit 3'
echo "after the failing command"
