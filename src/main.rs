//! The `regtrack` binary: a thin shell around [`regtrack::cli::run`].

fn main() -> std::process::ExitCode {
    regtrack::cli::run(std::env::args_os())
}
