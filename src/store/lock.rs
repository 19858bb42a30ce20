//! One regtrack writing a database at a time.
//!
//! SQLite serialises each write transaction (`BEGIN IMMEDIATE`, a 30 s busy
//! timeout), but an ingest is many transactions, an index build and a
//! relink, and a second writer interleaved with them could wait past the
//! timeout (a large index build or relink) and fail with `database is
//! locked`. So the commands that write (`ingest`, `mark`, `reindex`) hold an
//! advisory lock (`flock`) on `<db>.lock` for their whole run: a second one
//! waits for the first, says so after a second, then does its own work. The
//! lock is the kernel's: it goes with the process, however that ends.
//!
//! The lock file is not the database: closing a second descriptor of the
//! database file would drop the POSIX locks SQLite holds on it.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::error::{Error, Result};

/// How long a writer waits quietly before it says it is waiting.
pub const QUIET_WAIT: Duration = Duration::from_secs(1);

/// Held while a command writes; released when dropped.
#[derive(Debug)]
pub struct WriterLock {
    _file: File,
}

/// The lock file of the database at `db`.
pub fn lock_path(db: &Path) -> PathBuf {
    let mut p = db.as_os_str().to_owned();
    p.push(".lock");
    PathBuf::from(p)
}

/// Takes the writer lock of the database at `db`, waiting as long as
/// another regtrack holds it; `on_wait` is called once when that is longer
/// than [`QUIET_WAIT`]. `None` when no lock file can be made (a folder this
/// process cannot write: its writes will fail anyway and say why).
pub fn lock_writer(db: &Path, on_wait: impl FnOnce()) -> Result<Option<WriterLock>> {
    use rustix::fs::{FlockOperation, flock};
    let path = lock_path(db);
    let Ok(file) = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
    else {
        return Ok(None);
    };
    let io = |e: rustix::io::Errno| Error::Io {
        path: path.clone(),
        source: e.into(),
    };
    let started = Instant::now();
    loop {
        match flock(&file, FlockOperation::NonBlockingLockExclusive) {
            Ok(()) => return Ok(Some(WriterLock { _file: file })),
            Err(rustix::io::Errno::WOULDBLOCK) if started.elapsed() < QUIET_WAIT => {
                std::thread::sleep(Duration::from_millis(20));
            }
            Err(rustix::io::Errno::WOULDBLOCK) => break,
            Err(rustix::io::Errno::INTR) => {}
            Err(e) => return Err(io(e)),
        }
    }
    on_wait();
    loop {
        match flock(&file, FlockOperation::LockExclusive) {
            Ok(()) => return Ok(Some(WriterLock { _file: file })),
            Err(rustix::io::Errno::INTR) => {}
            Err(e) => return Err(io(e)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_writer_waits_for_the_first_and_says_so_once() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("w.db");
        let first = lock_writer(&db, || panic!("nobody holds it")).unwrap();
        assert!(first.is_some());
        let (tx, rx) = std::sync::mpsc::channel();
        let db2 = db.clone();
        let waiter = std::thread::spawn(move || {
            let t = Instant::now();
            let lock = lock_writer(&db2, || tx.send(t.elapsed()).unwrap()).unwrap();
            (lock.is_some(), t.elapsed())
        });
        // Said after a second, while the first still holds it.
        let said = rx.recv_timeout(Duration::from_secs(10)).unwrap();
        assert!(said >= QUIET_WAIT, "{said:?}");
        std::thread::sleep(Duration::from_millis(300));
        drop(first);
        let (got, waited) = waiter.join().unwrap();
        assert!(got && waited >= QUIET_WAIT + Duration::from_millis(300));
        assert!(rx.try_recv().is_err());
    }
}
