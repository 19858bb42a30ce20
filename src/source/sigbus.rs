//! The last guard against `SIGBUS`: git pack files are memory-mapped (by
//! gix, and by [`super::pack`]), and a mapped file cut short under the run
//! (`git gc` or a fetch rewriting an epoch or a kernel tree in place, a
//! partial copy) raises `SIGBUS` on the next page read past its new end.
//! [`super::pack`] checks every mapped pack's length before each read and
//! ends the epoch with an error when one shrank; between that check and the
//! page read there remain microseconds, and gix's own reads (the commit
//! walk, loose and `REF_DELTA` objects) have no such check.
//!
//! The binary's `SIGBUS` handler (installed first thing in `main`, where
//! unsafe code may live) ends the process with exit status 2 and one line,
//! [`MESSAGE`] with what was being read ([`reading`], [`what`]), never a
//! signal death with a core: every batch committed
//! before it is kept (SQLite drops the transaction that was open), an
//! epoch's progress never passes a message that was not stored, and the
//! next run goes on from there. The handler only reads this fixed buffer
//! with atomic loads and calls `write(2)` and `_exit(2)`, which are
//! async-signal-safe.

use std::path::Path;
use std::sync::atomic::{AtomicU8, AtomicUsize, Ordering};

const CAP: usize = 512;

/// What is being read, as bytes (control characters replaced), and its length.
static WHAT: [AtomicU8; CAP] = [const { AtomicU8::new(0) }; CAP];
static LEN: AtomicUsize = AtomicUsize::new(0);
/// The epoch being opened meanwhile (the ingest opens the next epoch while
/// one is read), the same way; each slot has one writer at a time.
static OPENING: [AtomicU8; CAP] = [const { AtomicU8::new(0) }; CAP];
static OPENING_LEN: AtomicUsize = AtomicUsize::new(0);

fn store(slot: &[AtomicU8; CAP], len: &AtomicUsize, path: &Path) {
    let s = path.display().to_string();
    let mut n = 0;
    len.store(0, Ordering::Release);
    for b in s.bytes().take(CAP) {
        let b = if b < 0x20 || b == 0x7f { b'?' } else { b };
        slot[n].store(b, Ordering::Relaxed);
        n += 1;
    }
    len.store(n, Ordering::Release);
}

/// Records that `path` (an epoch, a kernel tree) is being read, for the
/// message a `SIGBUS` prints.
pub fn reading(path: &Path) {
    store(&WHAT, &LEN, path);
}

/// While alive, the `SIGBUS` message names `path` as being opened too.
#[must_use = "the path is named only while the guard lives"]
pub struct Opening(());

impl Opening {
    /// Names `path` as being opened until the guard is dropped.
    pub fn of(path: &Path) -> Opening {
        store(&OPENING, &OPENING_LEN, path);
        Opening(())
    }
}

impl Drop for Opening {
    fn drop(&mut self) {
        OPENING_LEN.store(0, Ordering::Release);
    }
}

/// Copies what is being read into `out` (as much as fits: `A`, or `A' or
/// 'B` while B is opened beside it) and returns its length; only atomic
/// loads, so a signal handler may call it.
pub fn what(out: &mut [u8]) -> usize {
    fn put(out: &mut [u8], n: &mut usize, byte: u8) {
        if let Some(o) = out.get_mut(*n) {
            *o = byte;
            *n += 1;
        }
    }
    let mut n = 0;
    let read = LEN.load(Ordering::Acquire).min(CAP);
    let opening = OPENING_LEN.load(Ordering::Acquire).min(CAP);
    for w in WHAT.iter().take(read) {
        put(out, &mut n, w.load(Ordering::Relaxed));
    }
    if opening > 0 {
        if read > 0 {
            for &b in b"' or '" {
                put(out, &mut n, b);
            }
        }
        for w in OPENING.iter().take(opening) {
            put(out, &mut n, w.load(Ordering::Relaxed));
        }
    }
    n
}

/// The line a `SIGBUS` prints, before and after the path being read.
pub const MESSAGE: (&[u8], &[u8], &[u8]) = (
    b"regtrack: error: a memory-mapped git file was cut short while being read (SIGBUS)",
    b" while reading '",
    b"'; what was stored before it is kept, and the next run goes on from there\n",
);

/// Longest text [`what`] gives (two paths and what joins them).
pub const CAP_BYTES: usize = 2 * CAP + 6;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_paths_being_read_and_opened_are_kept_without_control_characters() {
        reading(Path::new("/srv/lore/ext4/git/0.git\x1b[2J"));
        let mut out = [0u8; CAP];
        let n = what(&mut out);
        assert_eq!(&out[..n], b"/srv/lore/ext4/git/0.git?[2J");
        // (One test: the slots are the process's.) An epoch opened beside
        // the one read is named while it opens.
        reading(Path::new("/l/0.git"));
        let mut out = [0u8; CAP_BYTES];
        {
            let _o = Opening::of(Path::new("/l/1.git"));
            let n = what(&mut out);
            assert_eq!(&out[..n], b"/l/0.git' or '/l/1.git");
        }
        let n = what(&mut out);
        assert_eq!(&out[..n], b"/l/0.git");
    }
}
