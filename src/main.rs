//! The `regtrack` binary: a thin shell around [`regtrack::cli::run_with`].

/// mimalloc: the parallel parse stage allocates and frees a great deal from
/// several threads, and mimalloc gives freed memory back to the system when
/// asked ([`release_memory`]), so the linking that follows an ingest does not sit on
/// top of the ingest's heap.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Frees what mimalloc holds for the calling thread.
fn collect() {
    // SAFETY: `mi_collect` takes no pointers; it only walks mimalloc's own
    // structures for the calling thread.
    unsafe { libmimalloc_sys::mi_collect(true) }
}

/// Hands the process's freed memory back to the system. The parse threads
/// allocated the ingest's batches and the writer freed them; mimalloc keeps
/// such memory with the allocating thread until that thread collects, so
/// every pool thread collects, then this one. What the C allocator holds for
/// SQLite (which allocates with `malloc`, not through Rust's global
/// allocator) is trimmed once, for the whole process.
fn release_memory() {
    rayon::broadcast(|_| collect());
    collect();
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        unsafe extern "C" {
            fn malloc_trim(pad: usize) -> std::ffi::c_int;
        }
        // SAFETY: glibc's `malloc_trim` takes a size and touches only free memory.
        unsafe {
            malloc_trim(0);
        }
    }
}

/// `mi_option_purge_delay` in mimalloc 3's `mi_option_t` (the crate exports
/// no constant for it).
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// Milliseconds mimalloc waits before it hands memory freed in whole pages
/// back to the system (its default is 1000, and ten times that for whole
/// arena chunks). Linking reads a regression's report tables whole and
/// keeps only the rows it uses, so the pages those tables filled are freed
/// moments after they were touched: handing them back sooner lowers the
/// peak RSS at the same speed (benches/README.md, "The allocator").
/// `MIMALLOC_PURGE_DELAY` still wins.
const PURGE_DELAY_MS: std::ffi::c_long = 100;

/// Sets [`PURGE_DELAY_MS`] unless the environment set a delay.
fn purge_sooner() {
    // SAFETY: called first thing in `main`, before any other thread exists
    // (mimalloc's option setters are not thread safe); takes no pointers.
    unsafe { libmimalloc_sys::mi_option_set_default(MI_OPTION_PURGE_DELAY, PURGE_DELAY_MS) }
}

/// Asks Linux not to back this process's memory with transparent huge pages.
/// mimalloc madvises its arena for them, and then pages it frees stay
/// resident inside 2 MB huge pages; without them the peak RSS of a large
/// ingest is lower at the same speed (benches/README.md, "The allocator").
fn no_huge_pages() {
    #[cfg(target_os = "linux")]
    {
        unsafe extern "C" {
            fn prctl(option: std::ffi::c_int, ...) -> std::ffi::c_int;
        }
        const PR_SET_THP_DISABLE: std::ffi::c_int = 41;
        // SAFETY: PR_SET_THP_DISABLE takes integer arguments only.
        unsafe {
            prctl(
                PR_SET_THP_DISABLE,
                1 as std::ffi::c_ulong,
                0 as std::ffi::c_ulong,
                0 as std::ffi::c_ulong,
                0 as std::ffi::c_ulong,
            );
        }
    }
}

/// Handles `SIGBUS` (a memory-mapped git file cut short under the run; see
/// `regtrack::source::sigbus`): one line naming what was being read, then
/// exit status 2. Only async-signal-safe calls: atomic loads, `write(2)`,
/// `_exit(2)`.
extern "C" fn on_sigbus(_: libc::c_int) {
    use regtrack::source::sigbus::{CAP_BYTES, MESSAGE, what};
    let mut path = [0u8; CAP_BYTES];
    let n = what(&mut path);
    let (head, before, after) = MESSAGE;
    let say = |b: &[u8]| {
        // SAFETY: `b` is valid for `b.len()` bytes for the call.
        unsafe { libc::write(2, b.as_ptr().cast(), b.len()) };
    };
    say(head);
    if n > 0 {
        say(before);
        say(&path[..n]);
        say(after);
    } else {
        say(b"; what was stored before it is kept, and the next run goes on from there\n");
    }
    // SAFETY: `_exit` ends the process at once; it is async-signal-safe.
    unsafe { libc::_exit(2) }
}

/// Installs [`on_sigbus`].
fn guard_sigbus() {
    // SAFETY: a zeroed `sigaction` is a valid empty one, and the handler is
    // an `extern "C" fn(c_int)` that makes only async-signal-safe calls.
    unsafe {
        let mut sa: libc::sigaction = std::mem::zeroed();
        sa.sa_sigaction = on_sigbus as *const () as usize;
        libc::sigemptyset(&mut sa.sa_mask);
        libc::sigaction(libc::SIGBUS, &sa, std::ptr::null_mut());
    }
}

fn main() -> std::process::ExitCode {
    purge_sooner();
    no_huge_pages();
    guard_sigbus();
    regtrack::cli::run_with(std::env::args_os(), regtrack::cli::Hooks { release_memory })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_purge_delay_is_mimalloc_3s_option_and_takes_effect() {
        // mimalloc 3 numbers its options in one enum, where the purge delay
        // comes right before `use_numa_nodes`, which the crate does export.
        assert_eq!(
            MI_OPTION_PURGE_DELAY + 1,
            libmimalloc_sys::mi_option_use_numa_nodes
        );
        if std::env::var_os("MIMALLOC_PURGE_DELAY").is_none() {
            purge_sooner();
            // SAFETY: reads an option; takes no pointers.
            let delay = unsafe { libmimalloc_sys::mi_option_get(MI_OPTION_PURGE_DELAY) };
            assert_eq!(delay, PURGE_DELAY_MS);
        }
    }
}
