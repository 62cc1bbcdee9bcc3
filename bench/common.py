"""What the bench scripts share: where the repository is, and the
arguments a program's header line gives (`# args:`, `# bench-args:`)."""

import pathlib
import re
import shlex

ROOT = pathlib.Path(__file__).resolve().parent.parent


def header_args(path, key):
    """The arguments on the first `# KEY:` line of `path` (`// KEY:` in C),
    split as a shell would (`--assume 'n >= 0'` is two arguments); [] when
    there is none."""
    line_re = re.compile(r"\s*(#|//)\s*" + re.escape(key) + r":(.*)")
    for line in path.read_text().splitlines():
        m = line_re.match(line)
        if m:
            return shlex.split(m.group(2))
    return []
