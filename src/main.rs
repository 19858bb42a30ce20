//! The `regtrack` binary: a thin shell around [`regtrack::cli::run`].

/// mimalloc: the parallel parse stage allocates and frees a great deal from
/// several threads, and mimalloc returns freed memory to the system, so the
/// linking that follows an ingest does not sit on top of the ingest's heap.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    regtrack::cli::run(std::env::args_os())
}
