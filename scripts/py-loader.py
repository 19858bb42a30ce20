#!/usr/bin/env python3
"""A plain Python baseline for scripts/bench-ingest: read an mbox with the
standard `mailbox` module and store each message (Message-ID, subject, sender,
date, In-Reply-To, References, decoded text body) in SQLite with `sqlite3`,
in one transaction. No report extraction: this is the floor a script gets.

usage: py-loader.py MBOX DB
"""
import email.utils
import mailbox
import sqlite3
import sys


def text_body(msg):
    parts = []
    for part in msg.walk():
        if part.get_content_maintype() != "text":
            continue
        payload = part.get_payload(decode=True) or b""
        charset = part.get_content_charset() or "utf-8"
        try:
            parts.append(payload.decode(charset, errors="replace"))
        except LookupError:
            parts.append(payload.decode("utf-8", errors="replace"))
    return "\n".join(parts)


def main():
    mbox_path, db_path = sys.argv[1], sys.argv[2]
    db = sqlite3.connect(db_path)
    db.execute("PRAGMA journal_mode=WAL")
    db.executescript("""
        CREATE TABLE IF NOT EXISTS messages (
            id INTEGER PRIMARY KEY, message_id TEXT UNIQUE, subject TEXT,
            from_addr TEXT, date INTEGER, in_reply_to TEXT, body TEXT);
        CREATE TABLE IF NOT EXISTS refs (message INTEGER, pos INTEGER, ref_id TEXT);
        CREATE INDEX IF NOT EXISTS refs_ref ON refs(ref_id);
    """)
    n = failed = 0
    with db:
        for msg in mailbox.mbox(mbox_path, create=False):
            try:
                mid = (msg.get("Message-ID") or "").strip().strip("<>")
                date = None
                try:
                    d = email.utils.parsedate_to_datetime(msg.get("Date"))
                    date = int(d.timestamp())
                except Exception:
                    pass
                cur = db.execute(
                    "INSERT OR IGNORE INTO messages (message_id, subject, from_addr, date, in_reply_to, body)"
                    " VALUES (?, ?, ?, ?, ?, ?)",
                    (mid, str(msg.get("Subject") or ""), str(msg.get("From") or ""), date,
                     (msg.get("In-Reply-To") or "").strip().strip("<>"), text_body(msg)))
                refs = str(msg.get("References") or "").split()
                db.executemany("INSERT INTO refs VALUES (?, ?, ?)",
                               [(cur.lastrowid, i, r.strip("<>")) for i, r in enumerate(refs)])
                n += 1
            except Exception:
                failed += 1
    print(f"py-loader: {n} messages, {failed} failed", file=sys.stderr)


if __name__ == "__main__":
    main()
