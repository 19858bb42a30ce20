#!/usr/bin/env python3
"""Write an mboxrd file as a public-inbox v2 epoch: a bare git repository with
one commit per message, each holding the message in blob `m` (the layout lore
serves). The reverse of export-epoch.py; scripts/build-pgo uses it to train on
a synthetic epoch.

usage: mbox-to-epoch.py MBOX EPOCH_GIT_DIR
"""
import re
import subprocess
import sys

FROM_LINE = re.compile(rb"^From ", re.M)
QUOTED_FROM = re.compile(rb"^>(>*From )", re.M)


def messages(data):
    """Yield each message of an mboxrd file, un-escaped, without its From line."""
    starts = [m.start() for m in FROM_LINE.finditer(data)
              if m.start() == 0 or data[m.start() - 1:m.start()] == b"\n"]
    for i, start in enumerate(starts):
        end = starts[i + 1] if i + 1 < len(starts) else len(data)
        body_start = data.index(b"\n", start) + 1
        msg = data[body_start:end]
        if msg.endswith(b"\n\n"):
            msg = msg[:-1]  # the blank line mboxrd puts between messages
        yield QUOTED_FROM.sub(rb"\1", msg)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip().splitlines()[-1])
    mbox, epoch = sys.argv[1], sys.argv[2]
    subprocess.run(["git", "init", "-q", "--bare", epoch], check=True)
    with open(mbox, "rb") as f:
        data = f.read()
    imp = subprocess.Popen(["git", "--git-dir", epoch, "fast-import", "--quiet"],
                           stdin=subprocess.PIPE)
    out = imp.stdin
    n = 0
    for n, msg in enumerate(messages(data), 1):
        note = b"message %d\n" % n
        out.write(b"commit refs/heads/master\n")
        out.write(b"committer regtrack <bench@example.invalid> %d +0000\n" % (10**9 + n))
        out.write(b"data %d\n%s" % (len(note), note))
        out.write(b"M 100644 inline m\n")
        out.write(b"data %d\n%s\n" % (len(msg), msg))
    out.close()
    if imp.wait() != 0:
        sys.exit("git fast-import failed")
    print(f"{epoch}: {n} messages", file=sys.stderr)


if __name__ == "__main__":
    main()
