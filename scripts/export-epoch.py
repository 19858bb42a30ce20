#!/usr/bin/env python3
"""Export a public-inbox epoch (bare git repo, one message per commit in blob
`m`) in commit order as an mboxrd file and/or a Maildir, for benchmarks.

usage: export-epoch.py EPOCH_GIT_DIR [--mbox OUT.mbox] [--maildir DIR]
                        [--tail N --tail-mbox TAIL.mbox]

With --tail, the last N messages go to TAIL.mbox instead (the newest mail,
for update benchmarks).
"""
import argparse
import os
import re
import subprocess
import sys

FROM_RE = re.compile(rb"^(>*From )", re.M)


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("epoch")
    ap.add_argument("--mbox")
    ap.add_argument("--maildir")
    ap.add_argument("--tail", type=int, default=0)
    ap.add_argument("--tail-mbox")
    a = ap.parse_args()
    if a.tail and not a.tail_mbox:
        ap.error("--tail needs --tail-mbox")
    commits = subprocess.run(
        ["git", "--git-dir", a.epoch, "rev-list", "--reverse", "--topo-order", "HEAD"],
        check=True, capture_output=True).stdout.split()
    cat = subprocess.Popen(["git", "--git-dir", a.epoch, "cat-file", "--batch"],
                           stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def feed():
        for c in commits:
            cat.stdin.write(c + b":m\n")
        cat.stdin.close()

    import threading
    t = threading.Thread(target=feed)
    t.start()
    mbox = open(a.mbox, "wb") if a.mbox else None
    tail = open(a.tail_mbox, "wb") if a.tail else None
    with_blob = len(commits) - a.tail  # approximate: deletions are rare
    if a.maildir:
        for sub in ("cur", "new", "tmp"):
            os.makedirs(os.path.join(a.maildir, sub), exist_ok=True)
    n = skipped = 0
    out = cat.stdout
    for _ in commits:
        header = out.readline()
        parts = header.split()
        if len(parts) < 3 or parts[1] != b"blob":
            skipped += 1  # a deletion ('d') or missing blob
            continue
        size = int(parts[2])
        data = out.read(size)
        out.read(1)  # the newline after the object
        n += 1
        sink = tail if tail and n + skipped > with_blob else mbox
        if sink:
            sink.write(b"From mboxrd@z Thu Jan  1 00:00:00 1970\n")
            sink.write(FROM_RE.sub(rb">\1", data))
            if not data.endswith(b"\n"):
                sink.write(b"\n")
            sink.write(b"\n")
        if a.maildir:
            with open(os.path.join(a.maildir, "cur", "%08d.bench:2,S" % n), "wb") as f:
                f.write(data)
    t.join()
    cat.wait()
    for f in (mbox, tail):
        if f:
            f.close()
    print(f"exported {n} messages ({skipped} commits without m)", file=sys.stderr)


if __name__ == "__main__":
    main()
