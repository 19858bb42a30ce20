//! The `regtrack` binary: a thin shell around [`regtrack::cli::run_with`].

/// mimalloc: the parallel parse stage allocates and frees a great deal from
/// several threads, and mimalloc gives freed memory back to the system when
/// asked ([`collect`]), so the linking that follows an ingest does not sit on
/// top of the ingest's heap.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Frees what mimalloc holds for the calling thread, and what the C
/// allocator holds for SQLite (which allocates with `malloc`, not through
/// Rust's global allocator).
fn collect() {
    // SAFETY: `mi_collect` takes no pointers; it only walks mimalloc's own
    // structures for the calling thread.
    unsafe { libmimalloc_sys::mi_collect(true) }
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

fn main() -> std::process::ExitCode {
    regtrack::cli::run_with(
        std::env::args_os(),
        regtrack::cli::Hooks {
            release_memory: collect,
        },
    )
}
