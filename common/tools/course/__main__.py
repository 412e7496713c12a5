"""`python3 -m course ...` (with common/tools on the path): the same as common/tools/course.py."""

from .cli import entry

entry()
