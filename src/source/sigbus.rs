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

/// Records that `path` (an epoch, a kernel tree) is being read, for the
/// message a `SIGBUS` prints.
pub fn reading(path: &Path) {
    let s = path.display().to_string();
    let mut n = 0;
    LEN.store(0, Ordering::Release);
    for b in s.bytes().take(CAP) {
        let b = if b < 0x20 || b == 0x7f { b'?' } else { b };
        WHAT[n].store(b, Ordering::Relaxed);
        n += 1;
    }
    LEN.store(n, Ordering::Release);
}

/// Copies what is being read into `out` (as much as fits) and returns its
/// length; only atomic loads, so a signal handler may call it.
pub fn what(out: &mut [u8]) -> usize {
    let len = LEN.load(Ordering::Acquire).min(CAP).min(out.len());
    for (o, w) in out.iter_mut().zip(WHAT.iter()).take(len) {
        *o = w.load(Ordering::Relaxed);
    }
    len
}

/// The line a `SIGBUS` prints, before and after the path being read.
pub const MESSAGE: (&[u8], &[u8], &[u8]) = (
    b"regtrack: error: a memory-mapped git file was cut short while being read (SIGBUS)",
    b" while reading '",
    b"'; what was stored before it is kept, and the next run goes on from there\n",
);

/// Longest path [`what`] gives.
pub const CAP_BYTES: usize = CAP;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_path_being_read_is_kept_without_control_characters() {
        reading(Path::new("/srv/lore/ext4/git/0.git\x1b[2J"));
        let mut out = [0u8; CAP];
        let n = what(&mut out);
        assert_eq!(&out[..n], b"/srv/lore/ext4/git/0.git?[2J");
    }
}
